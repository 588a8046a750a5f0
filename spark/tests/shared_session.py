"""The one local[2] Spark session the test modules share, started when first asked for.

Starting a session takes seconds; every module of one `unittest discover`
run uses this one, and it stops when the process exits.

    import shared_session
    spark = shared_session.get()
"""

import atexit

import tally_spark

_session = None


def get():
    """The shared session (`local[2]`, 7 shuffle partitions), started on first use."""
    global _session
    if _session is None:
        _session = tally_spark.session("local[2]", shuffle_partitions=7)
        atexit.register(_session.stop)
    return _session
