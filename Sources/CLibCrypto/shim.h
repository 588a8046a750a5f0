// OpenSSL's libcrypto (Debian: libssl-dev), for SHA-256 only: its EVP
// digests use the CPU's SHA extensions where it has them.
#include <openssl/evp.h>
