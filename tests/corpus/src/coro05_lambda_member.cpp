// Coroutine lambdas, coroutine member functions (the promise sees `this`
// through a promise constructor taking the coroutine's parameters),
// coroutine function templates, static member coroutines, and coroutines
// capturing by value into the frame.
#include <coroutine>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

template <typename T>
struct lazy {
    struct promise_type {
        T value{};
        int ctor_args = 0;
        promise_type() = default;
        // Promise constructor overload that receives the coroutine parameters.
        template <typename... Args>
        promise_type(Args &&...) : ctor_args(int(sizeof...(Args))) {}
        lazy get_return_object() {
            return lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(T v) { value = std::move(v); }
        void unhandled_exception() { throw; }
    };
    std::coroutine_handle<promise_type> h;
    explicit lazy(std::coroutine_handle<promise_type> h) : h(h) {}
    lazy(lazy &&o) noexcept : h(std::exchange(o.h, {})) {}
    ~lazy() {
        if (h)
            h.destroy();
    }
    T get() {
        while (!h.done())
            h.resume();
        return h.promise().value;
    }
    int args() const { return h.promise().ctor_args; }
};

struct pause {
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};

class account {
public:
    explicit account(std::string owner) : owner_(std::move(owner)) {}

    lazy<int> deposit_all(std::vector<int> amounts) {
        for (int a : amounts) {
            balance_ += a;
            co_await pause{};
        }
        co_return balance_;
    }

    lazy<std::string> describe() const {
        co_await pause{};
        co_return owner_ + ":" + std::to_string(balance_);
    }

    static lazy<int> static_coro(int a, int b) {
        co_await pause{};
        co_return a * b;
    }

    virtual lazy<int> virtual_coro(int k) {
        co_await pause{};
        co_return k + balance_;
    }
    virtual ~account() = default;

private:
    std::string owner_;
    int balance_ = 0;
};

class savings : public account {
public:
    using account::account;
    lazy<int> virtual_coro(int k) override {
        int base = co_await_helper(k);
        co_await pause{};
        co_return base * 2;
    }

private:
    static int co_await_helper(int k) { return k + 1; }
};

template <typename T, typename F>
lazy<T> accumulate(std::vector<T> xs, F f) {
    T acc{};
    for (auto &x : xs) {
        acc = f(acc, x);
        co_await pause{};
    }
    co_return acc;
}

int main() {
    account acc("ann");
    auto d = acc.deposit_all({10, 20, 30});
    int bal = d.get();
    std::string desc = acc.describe().get();
    int st = account::static_coro(6, 7).get();

    savings sv("bob");
    account &base = sv;
    int vc = base.virtual_coro(4).get();

    int factor = 3;
    auto coro_lambda = [factor](int n) -> lazy<int> {
        int s = 0;
        for (int i = 0; i < n; ++i) {
            s += i * factor;
            co_await pause{};
        }
        co_return s;
    };
    auto generic_lambda = [](auto x) -> lazy<decltype(x)> {
        co_await pause{};
        co_return x + x;
    };
    int l1 = coro_lambda(5).get();
    double l2 = generic_lambda(1.25).get();
    auto lz = coro_lambda(2);
    int nargs = lz.args();
    long total = accumulate<long>({1, 2, 3, 4}, [](long a, long b) { return a + b * b; }).get();
    std::string cat = accumulate<std::string>({"a", "b", "c"}, [](std::string a, const std::string &b) {
                          return a + b;
                      }).get();
    std::printf("%d %s %d %d %d %g %d %ld %s\n", bal, desc.c_str(), st, vc, l1, l2, nargs, total,
                cat.c_str());
    return 0;
}
