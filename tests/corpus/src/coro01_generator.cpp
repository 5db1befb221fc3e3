// Generator coroutine with co_yield: a minimal generator<T> with an input
// iterator, yielding from loops, recursion via nested generators, and
// early destruction of a suspended generator.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

template <typename T>
class generator {
public:
    struct promise_type {
        T current{};
        std::exception_ptr error;
        generator get_return_object() {
            return generator{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        std::suspend_always yield_value(T v) noexcept {
            current = std::move(v);
            return {};
        }
        void return_void() noexcept {}
        void unhandled_exception() { error = std::current_exception(); }
    };

    struct sentinel {};
    struct iterator {
        std::coroutine_handle<promise_type> h;
        iterator &operator++() {
            h.resume();
            if (h.done() && h.promise().error)
                std::rethrow_exception(h.promise().error);
            return *this;
        }
        const T &operator*() const { return h.promise().current; }
        bool operator==(sentinel) const { return !h || h.done(); }
    };

    explicit generator(std::coroutine_handle<promise_type> h) : handle_(h) {}
    generator(generator &&o) noexcept : handle_(std::exchange(o.handle_, {})) {}
    generator(const generator &) = delete;
    ~generator() {
        if (handle_)
            handle_.destroy();
    }
    iterator begin() {
        handle_.resume();
        return iterator{handle_};
    }
    sentinel end() { return {}; }

private:
    std::coroutine_handle<promise_type> handle_;
};

static generator<int> iota(int from, int to) {
    for (int i = from; i < to; ++i)
        co_yield i;
}

static generator<unsigned long long> fibonacci() {
    unsigned long long a = 0, b = 1;
    for (;;) {
        co_yield a;
        a = std::exchange(b, a + b);
    }
}

static generator<int> filtered(int limit) {
    for (int v : iota(0, limit)) {
        if (v % 3 == 0)
            continue;
        co_yield v * 10;
    }
}

struct point {
    double x, y;
};

static generator<point> spiral(int n) {
    double r = 0.5;
    for (int i = 0; i < n; ++i) {
        switch (i % 4) {
        case 0: co_yield point{r, 0}; break;
        case 1: co_yield point{0, r}; break;
        case 2: co_yield point{-r, 0}; break;
        default: co_yield point{0, -r}; break;
        }
        r *= 1.5;
    }
}

static generator<int> tree_walk(int depth, int id) {
    co_yield id;
    if (depth > 0) {
        for (int child : tree_walk(depth - 1, id * 2))
            co_yield child;
        for (int child : tree_walk(depth - 1, id * 2 + 1))
            co_yield child;
    }
}

int main() {
    int sum = 0;
    for (int v : iota(1, 11))
        sum += v;
    unsigned long long last = 0;
    int count = 0;
    for (auto f : fibonacci()) {
        last = f;
        if (++count == 50)
            break;  // destroys a suspended coroutine
    }
    int fsum = 0;
    for (int v : filtered(10))
        fsum += v;
    double px = 0;
    for (auto p : spiral(8))
        px += p.x + p.y;
    int nodes = 0, ids = 0;
    for (int id : tree_walk(3, 1)) {
        ++nodes;
        ids += id;
    }
    std::printf("%d %llu %d %g %d %d\n", sum, last, fsum, px, nodes, ids);
    return 0;
}
