// LZ4 (Debian liblz4-dev): the blocks of an external sort's runs. A streamed expansion spills its
// whole output to sorted runs (9 GB at 1M events); its records compress seven- to tenfold in 16 KiB
// blocks at a few GB/s (121 MB of runs for 927 MB of records at 100k events), so the runs cost the
// disk and the page cache an eighth of that.
#include <lz4.h>
