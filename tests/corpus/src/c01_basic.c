// Basic C: arithmetic, loops, switch, recursion, structs, function pointers,
// static locals, struct return by value (sret) and pass by value (byval).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>

typedef struct {
    int x, y;
} point;

typedef struct {
    double m[4][4];
    const char *name;
} big_matrix;

static int counter(void) {
    static int n = 0;
    return ++n;
}

static unsigned long fib(unsigned n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static point point_add(point a, point b) {
    point r = {a.x + b.x, a.y + b.y};
    return r;
}

static big_matrix identity(const char *name) {
    big_matrix m;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 4; i++)
        m.m[i][i] = 1.0;
    m.name = name;
    return m;
}

static double trace(big_matrix m) {
    double t = 0;
    for (int i = 0; i < 4; i++)
        t += m.m[i][i];
    return t;
}

static const char *classify(int c) {
    switch (c) {
    case 0:
        return "zero";
    case 1:
    case 2:
    case 3:
        return "small";
    case 10:
        return "ten";
    case 100:
        return "hundred";
    case -1:
        return "minus one";
    default:
        if (c < 0)
            return "negative";
        return "other";
    }
}

static int dense_switch(int op, int a, int b) {
    int r;
    switch (op) {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = a * b; break;
    case 3: r = b ? a / b : 0; break;
    case 4: r = b ? a % b : 0; break;
    case 5: r = a << (b & 31); break;
    case 6: r = a >> (b & 31); break;
    case 7: r = a & b; break;
    case 8: r = a | b; break;
    case 9: r = a ^ b; break;
    default: r = -1; break;
    }
    return r;
}

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
static int fold(const int *xs, size_t n, int init, binop f) {
    for (size_t i = 0; i < n; i++)
        init = f(init, xs[i]);
    return init;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static uint32_t hash(const char *s) {
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

static float mixed(float f, double d, int8_t i8, uint16_t u16, int64_t i64) {
    double r = f * d + i8 - u16;
    r += (double)i64 / 3.0;
    bool neg = r < 0;
    return neg ? (float)-r : (float)r;
}

int main(int argc, char **argv) {
    (void)argv;
    int xs[] = {5, 3, 9, 1, 7, 2};
    size_t n = sizeof xs / sizeof xs[0];
    qsort(xs, n, sizeof xs[0], cmp_int);
    for (size_t i = 0; i < n; i++)
        printf("%d ", xs[i]);
    printf("\n");
    printf("sum=%d prod=%d\n", fold(xs, n, 0, add), fold(xs, n, 1, mul));
    point p = point_add((point){1, 2}, (point){3, 4});
    printf("p=(%d,%d)\n", p.x, p.y);
    big_matrix m = identity("I");
    printf("%s trace=%g\n", m.name, trace(m));
    printf("fib(20)=%lu\n", fib(20));
    for (int i = -2; i < 12; i += 3)
        printf("%d:%s ", i, classify(i));
    printf("\n");
    int acc = 0;
    for (int op = 0; op < 11; op++)
        acc += dense_switch(op, 17 + argc, 5);
    printf("acc=%d hash=%u\n", acc, hash("llcoro"));
    counter();
    counter();
    printf("counter=%d mixed=%f\n", counter(), mixed(1.5f, 2.25, -3, 7, 1000000007LL));
    int i = 0;
    do {
        i += 2;
        if (i == 6)
            continue;
        if (i > 10)
            break;
    } while (i < 100);
    return i == 12 ? 0 : 1;
}
