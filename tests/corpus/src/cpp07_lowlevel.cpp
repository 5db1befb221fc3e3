// Low-level C++: __int128, long double, _Float16, vector_size types and
// __builtin_shufflevector in templates, inline asm, bitfields, packed and
// alignas structs, computed goto, switch on enum class, unions, bit_cast.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>

using v4i = int __attribute__((vector_size(16)));
using v2l = long long __attribute__((vector_size(16)));
using v8h = _Float16 __attribute__((vector_size(16)));

enum class opcode : std::uint8_t { nop, inc, dbl, neg, halt };

struct __attribute__((packed)) packed_rec {
    std::uint8_t tag;
    std::uint64_t payload;
    std::uint16_t extra;
};

struct alignas(32) aligned_rec {
    float values[3];
    int count;
};

struct bits {
    std::uint32_t a : 3;
    std::uint32_t b : 7;
    std::int32_t c : 12;
    std::uint64_t d : 42;
    bool flag : 1;
};

template <typename V>
V rotate_left(V v) {
    return __builtin_shufflevector(v, v, 1, 2, 3, 0);
}

template <typename T>
T mulhi(T a, T b) {
    using wide = unsigned __int128;
    return T((wide(a) * wide(b)) >> 64);
}

static long double precise(long double x) {
    long double acc = 0;
    for (int i = 1; i < 20; ++i)
        acc += x / (long double)i;
    return acc;
}

static _Float16 half_dot(v8h a, v8h b) {
    v8h p = a * b;
    _Float16 s = 0;
    for (int i = 0; i < 8; ++i)
        s += p[i];
    return s;
}

static int run(const opcode *code) {
    static void *const labels[] = {&&l_nop, &&l_inc, &&l_dbl, &&l_neg, &&l_halt};
    int acc = 1;
#define DISPATCH() goto *labels[static_cast<int>(*code++)]
    DISPATCH();
l_nop:
    DISPATCH();
l_inc:
    ++acc;
    DISPATCH();
l_dbl:
    acc *= 2;
    DISPATCH();
l_neg:
    acc = -acc;
    DISPATCH();
l_halt:
    return acc;
#undef DISPATCH
}

static const char *name(opcode op) {
    switch (op) {
    case opcode::nop: return "nop";
    case opcode::inc: return "inc";
    case opcode::dbl: return "dbl";
    case opcode::neg: return "neg";
    case opcode::halt: return "halt";
    }
    return "?";
}

static std::uint64_t asm_mix(std::uint64_t x, std::uint64_t y) {
#if defined(__x86_64__)
    std::uint64_t r;
    asm("movq %1, %0\n\txorq %2, %0\n\trolq $13, %0" : "=&r"(r) : "r"(x), "r"(y) : "cc");
    return r;
#else
    return x ^ y;
#endif
}

int main() {
    v4i v{1, 2, 3, 4};
    v4i rv = rotate_left(v);
    v2l l{10, 20};
    v2l rl = __builtin_shufflevector(l, l, 1, 0);
    v8h h1{1, 2, 3, 4, 5, 6, 7, 8}, h2{0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1};
    packed_rec pr{1, 0x1122334455667788ULL, 9};
    aligned_rec ar{{1.f, 2.f, 3.f}, 3};
    bits b{};
    b.a = 5;
    b.b = 100;
    b.c = -300;
    b.d = (1ULL << 41) + 1;
    b.flag = true;
    const opcode prog[] = {opcode::inc, opcode::dbl, opcode::nop, opcode::neg, opcode::halt};
    __int128 big = (__int128)1 << 100;
    big /= 3;
    double d = 1.5;
    auto bitsd = std::bit_cast<std::uint64_t>(d);
    std::uint64_t payload;
    std::memcpy(&payload, reinterpret_cast<const char *>(&pr) + 1, sizeof payload);
    std::printf("%d %lld %g %llx %zu %zu %d %d\n", rv[0], rl[0], (double)half_dot(h1, h2),
                (unsigned long long)payload, sizeof(pr), alignof(aligned_rec), ar.count,
                (int)(b.a + b.b + b.c + (int)(b.d >> 40) + b.flag));
    std::printf("%d %s %Lg %llx %llx %llx\n", run(prog), name(prog[1]), precise(2.0L),
                (unsigned long long)(big >> 64), (unsigned long long)bitsd,
                (unsigned long long)mulhi<std::uint64_t>(~0ULL, 3) + asm_mix(1, 2));
    return 0;
}
