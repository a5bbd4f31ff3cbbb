/* The floor under every row of Benchmarks/run: read a file and write a given number of bytes with
 * calport's chunking (64 KiB reads and writes, ICalendarStreamWriter.chunkSize), doing nothing else.
 * Output is written as input arrives, in proportion, as a streaming converter does. A task can go no
 * faster than this on the same bytes. Usage: floor IN.ics OUTPUT_BYTES > OUT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK = 1 << 16 };

static int write_all(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(STDOUT_FILENO, bytes, count);
        if (written < 0) return -1;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s IN OUTPUT_BYTES\n", argv[0]);
        return 2;
    }
    int input = open(argv[1], O_RDONLY);
    struct stat status;
    if (input < 0 || fstat(input, &status) != 0) {
        perror(argv[1]);
        return 3;
    }
    long long total_out = atoll(argv[2]), total_in = status.st_size > 0 ? status.st_size : 1;
    long long read_so_far = 0, written = 0;
    static char chunk[CHUNK];
    for (;;) {
        ssize_t count = read(input, chunk, CHUNK);
        if (count < 0) {
            perror(argv[1]);
            return 3;
        }
        if (count == 0) break;
        read_so_far += count;
        /* The output due so far, written in whole chunks of the bytes at hand. */
        long long due = total_out * read_so_far / total_in;
        while (due - written >= CHUNK) {
            if (write_all(chunk, CHUNK) != 0) return 3;
            written += CHUNK;
        }
    }
    while (written < total_out) {
        long long left = total_out - written;
        size_t size = left < CHUNK ? (size_t)left : CHUNK;
        if (write_all(chunk, size) != 0) return 3;
        written += (long long)size;
    }
    close(input);
    return 0;
}
