// Templates: class and function templates, variadic templates and fold
// expressions, partial/full specialization, CRTP, constexpr evaluation,
// concepts, non-type template parameters, template template parameters.
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <utility>

template <typename T, std::size_t N>
struct fixed_array {
    T data[N];
    constexpr std::size_t size() const { return N; }
    constexpr T &operator[](std::size_t i) { return data[i]; }
    constexpr const T &operator[](std::size_t i) const { return data[i]; }
    template <typename F>
    constexpr auto map(F f) const -> fixed_array<decltype(f(std::declval<T>())), N> {
        fixed_array<decltype(f(std::declval<T>())), N> out{};
        for (std::size_t i = 0; i < N; ++i)
            out[i] = f(data[i]);
        return out;
    }
};

template <typename... Ts>
constexpr auto sum(Ts... xs) {
    return (xs + ... + 0);
}

inline const char *describe(int) { return "int"; }
inline const char *describe(double) { return "double"; }
inline const char *describe(const char *) { return "cstr"; }

template <typename... Ts>
void print_all(const Ts &...xs) {
    ((std::printf("%s ", describe(xs))), ...);
    std::printf("\n");
}


template <typename T>
struct type_name {
    static const char *get() { return "unknown"; }
};
template <>
struct type_name<int> {
    static const char *get() { return "int"; }
};
template <typename T>
struct type_name<T *> {
    static const char *get() { return "pointer"; }
};

template <typename Derived>
struct shape_base {
    double area() const { return static_cast<const Derived *>(this)->area_impl(); }
    double twice() const { return 2 * area(); }
};
struct square : shape_base<square> {
    double side;
    explicit square(double s) : side(s) {}
    double area_impl() const { return side * side; }
};
struct circle : shape_base<circle> {
    double r;
    explicit circle(double r) : r(r) {}
    double area_impl() const { return 3.14159 * r * r; }
};

template <typename T>
concept arithmetic = std::is_arithmetic_v<T>;

template <arithmetic T>
constexpr T clamp_to(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
    requires requires(T t) { t.size(); }
std::size_t size_of(const T &t) {
    return t.size();
}

constexpr unsigned long long factorial(unsigned n) { return n <= 1 ? 1 : n * factorial(n - 1); }
static_assert(factorial(10) == 3628800ULL);

template <unsigned long long N>
struct fib_t : std::integral_constant<unsigned long long, fib_t<N - 1>::value + fib_t<N - 2>::value> {};
template <>
struct fib_t<0> : std::integral_constant<unsigned long long, 0> {};
template <>
struct fib_t<1> : std::integral_constant<unsigned long long, 1> {};

template <template <typename, std::size_t> class Container, typename T>
T first_of(const Container<T, 3> &c) {
    return c[0];
}

template <typename T>
struct holder {
    T value;
    static inline int instances = 0;
    holder(T v) : value(std::move(v)) { ++instances; }
};

template <typename F, typename... Args>
decltype(auto) invoke_twice(F &&f, Args &&...args) {
    f(args...);
    return std::forward<F>(f)(std::forward<Args>(args)...);
}

int main() {
    constexpr fixed_array<int, 4> a{{1, 2, 3, 4}};
    auto sq = a.map([](int x) { return x * 1.5; });
    print_all(1, 2.0, "three");
    std::printf("%d %g %s %s %s\n", sum(1, 2, 3, 4), sq[3], type_name<int>::get(),
                type_name<double *>::get(), type_name<float>::get());
    square s(3);
    circle c(1);
    std::printf("%g %g %d %g\n", s.twice(), c.area(), clamp_to(17, 0, 10), clamp_to(-1.5, 0.0, 1.0));
    std::printf("%zu %llu %llu\n", size_of(a), factorial(12), fib_t<50>::value);
    fixed_array<long, 3> three{{7, 8, 9}};
    holder<int> h1(1), h2(2);
    holder<double> h3(3.0);
    int calls = 0;
    int r = invoke_twice([&calls](int x) { return ++calls + x; }, 40);
    std::printf("%ld %d %d %d\n", first_of(three), holder<int>::instances, r, h1.value + h2.value + (int)h3.value);
    return 0;
}
