// Aggregate layout: bitfields, packed structs, alignas/_Alignas, unions,
// flexible array members, designated initializers, compound literals,
// nested anonymous structs, zero-length and large arrays, VLAs.
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flags {
    unsigned ready : 1;
    unsigned mode : 3;
    signed level : 5;
    unsigned : 0;
    unsigned long long wide : 40;
    _Bool on : 1;
};

struct __attribute__((packed)) wire_header {
    uint8_t kind;
    uint32_t length;
    uint16_t port;
    uint64_t stamp;
};

#pragma pack(push, 2)
struct pragma_packed {
    char c;
    int i;
    short s;
};
#pragma pack(pop)

struct aligned_box {
    alignas(64) char cache_line[16];
    _Alignas(16) double d;
    int tail;
};

union number {
    int64_t i;
    double d;
    uint8_t bytes[8];
    struct {
        uint32_t lo, hi;
    };
};

struct message {
    size_t len;
    char data[];
};

struct config {
    const char *name;
    int values[4];
    struct {
        int x, y;
    } origin;
    union number num;
};

static const struct config defaults = {
    .name = "default",
    .values = {[2] = 7, [0] = 1},
    .origin.y = 9,
    .num.d = 1.5,
};

static struct config table[3] = {
    [1] = {.name = "one", .values = {1, 1, 1, 1}},
    [2] = {"two", {2, 2}, {3, 4}, {.i = -1}},
};

static alignas(32) int aligned_global[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static struct message *message_new(const char *text) {
    size_t n = strlen(text);
    struct message *m = malloc(sizeof *m + n + 1);
    if (!m)
        return NULL;
    m->len = n;
    memcpy(m->data, text, n + 1);
    return m;
}

static int bits(struct flags *f, int level) {
    f->ready = 1;
    f->mode = (unsigned)level & 7;
    f->level = level;
    f->wide = 0xABCDEF1234ULL;
    f->on = level > 0;
    return f->level + (int)f->mode + (int)(f->wide >> 32) + f->on;
}

static uint32_t read_len(const struct wire_header *h) { return h->length; }

static int vla_sum(int n, int m) {
    int grid[n][m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            grid[i][j] = i * j;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += grid[i][m - 1];
    return s + (int)sizeof(grid);
}

static int sum_points(const int (*pts)[2], int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += pts[i][0] * pts[i][1];
    return s;
}

int main(void) {
    struct flags f = {0};
    struct wire_header h = {.kind = 1, .length = 0x01020304, .port = 80, .stamp = 5};
    struct pragma_packed pp = {'a', 5, 6};
    struct aligned_box box;
    memset(&box, 0, sizeof box);
    box.d = 2.0;
    union number u = {.d = 1.0};
    struct message *m = message_new("flexible");
    int s = sum_points((const int[][2]){{1, 2}, {3, 4}, {5, 6}}, 3);
    printf("%d %u %zu %zu %zu %zu\n", bits(&f, -3), read_len(&h), sizeof h,
           sizeof pp, sizeof box, alignof(struct aligned_box));
    printf("%x %x %s %zu %s %d %d\n", u.hi, u.lo, m ? m->data : "?", m ? m->len : 0,
           defaults.name, defaults.values[2], table[2].origin.y);
    printf("%d %d %d %d\n", vla_sum(4, 5), s, aligned_global[7],
           (int)offsetof(struct config, num));
    free(m);
    return pp.c == 'a' ? 0 : 1;
}
