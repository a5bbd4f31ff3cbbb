/* The machine's pace, printed beside Benchmarks/run's table: a fixed amount of work of the kind a
 * calendar converter does (a byte-by-byte state machine over text with table lookups and branches,
 * and a hash of what it finds), on 256 KiB that stay in the processor's caches, with no system calls
 * or memory to fault in. The time it takes indicates the host's speed at that moment, so that a
 * table's rates can be read with it: on the shared 2-core virtual machine it took 0.24 s and 0.45 s
 * within one minute. It does not show what memory costs. Usage: pace [ROUNDS]; prints a checksum,
 * so that the work cannot be left out. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { SIZE = 1 << 18 };

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 400;
    static unsigned char text[SIZE];
    /* Lines of letters, digits, separators and escapes, from a fixed generator. */
    uint32_t state = 2463534242u;
    for (int i = 0; i < SIZE; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 :;,=\\\"\n";
        text[i] = (unsigned char)alphabet[state % (sizeof alphabet - 1)];
    }
    /* Byte classes, as a content-line reader has them: name, separator, escape, line end, other. */
    unsigned char classes[256] = {0};
    for (int c = 'A'; c <= 'Z'; c++) classes[c] = 1;
    for (int c = 'a'; c <= 'z'; c++) classes[c] = 1;
    for (int c = '0'; c <= '9'; c++) classes[c] = 1;
    classes[':'] = classes[';'] = classes[','] = classes['='] = 2;
    classes['\\'] = 3;
    classes['\n'] = 4;
    uint64_t checksum = 0;
    for (long round = 0; round < rounds; round++) {
        uint64_t hash = 14695981039346656037u ^ (uint64_t)round;
        int inName = 0;
        for (int i = 0; i < SIZE; i++) {
            unsigned char byte = text[i];
            switch (classes[byte]) {
            case 1:
                if (!inName) checksum += hash & 0xFF;
                inName = 1;
                hash = (hash ^ byte) * 1099511628211u;
                break;
            case 2:
                inName = 0;
                checksum ^= hash;
                break;
            case 3:
                if (i + 1 < SIZE) i++;
                break;
            case 4:
                checksum += hash >> 32;
                hash = 14695981039346656037u;
                inName = 0;
                break;
            default:
                inName = 0;
            }
        }
    }
    printf("%llu\n", (unsigned long long)checksum);
    return 0;
}
