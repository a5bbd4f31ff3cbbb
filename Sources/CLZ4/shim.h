// LZ4 (Debian liblz4-dev): the blocks of an external sort's runs. A streamed expansion spills its
// whole output to sorted runs (9 GB at 1M events); its records compress about tenfold in 16 KiB
// blocks at a few GB/s, so the runs cost the disk and the page cache a tenth of that.
#include <lz4.h>
