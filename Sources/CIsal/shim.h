#include <isa-l/igzip_lib.h>

/// The level-2 deflate buffer sizes, as functions: Swift does not import
/// macros built from other macros.
static inline uint32_t tally_isal_level2_buffer_min(void) { return ISAL_DEF_LVL2_MIN; }
static inline uint32_t tally_isal_level2_buffer_default(void) { return ISAL_DEF_LVL2_DEFAULT; }
