// Lambdas: captures by value/reference/init-capture/this, mutable lambdas,
// generic lambdas, recursive lambdas, std::function, lambdas converted to
// function pointers, immediately invoked lambdas, constexpr lambdas.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

struct widget {
    int base = 10;
    auto adder() {
        return [this](int x) { return base + x; };
    }
    auto copier() {
        return [*this](int x) { return base * x; };
    }
};

static int apply_fp(int (*f)(int), int v) { return f(v); }

static std::function<int(int)> make_counter(int start) {
    auto state = std::make_shared<int>(start);
    return [state](int step) { return *state += step; };
}

template <typename F>
static auto compose(F f) {
    return [f](auto g) { return [f, g](auto x) { return f(g(x)); }; };
}

int main() {
    int k = 3;
    auto by_value = [k](int x) { return x * k; };
    auto by_ref = [&k](int x) { k += x; return k; };
    auto init_capture = [v = std::vector<int>{1, 2, 3}, n = k * 2]() mutable {
        v.push_back(n);
        return std::accumulate(v.begin(), v.end(), 0);
    };
    auto generic = [](auto a, auto b) { return a + b; };
    auto variadic = [](auto... xs) { return (xs * ... * 1); };
    constexpr auto square = [](int x) constexpr { return x * x; };
    static_assert(square(5) == 25);
    int (*fp)(int) = [](int x) { return x - 1; };

    std::function<int(int)> fact = [&fact](int n) { return n <= 1 ? 1 : n * fact(n - 1); };
    auto fib = [](auto self, int n) -> long { return n < 2 ? n : self(self, n - 1) + self(self, n - 2); };

    std::vector<int> data{5, 2, 8, 1, 9, 3};
    std::sort(data.begin(), data.end(), [](int a, int b) { return a > b; });
    int threshold = 4;
    auto cnt = std::count_if(data.begin(), data.end(), [=](int x) { return x > threshold; });
    std::for_each(data.begin(), data.end(), [&](int &x) { x += threshold; });

    widget w;
    auto add = w.adder();
    auto mul = w.copier();
    w.base = 100;

    auto counter = make_counter(10);
    counter(1);
    counter(2);

    auto inc_then_double = compose([](int x) { return x * 2; })([](int x) { return x + 1; });

    int iife = [&] {
        int s = 0;
        for (int x : data)
            s += x;
        return s;
    }();

    std::printf("%d %d %d %g %d %d\n", by_value(4), by_ref(2), init_capture(), generic(1, 2.5),
                variadic(2, 3, 4), apply_fp(fp, 10));
    std::printf("%d %ld %ld %d %d %d %d %d\n", fact(6), fib(fib, 15), (long)cnt, data[0], add(1),
                mul(2), counter(0), inc_then_double(5));
    std::printf("%d\n", iife);
    return 0;
}
