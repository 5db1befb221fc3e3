// Exceptions: throw/catch by type hierarchy, catch(...), rethrow, nested
// try blocks, RAII destructors during unwinding, noexcept, function-try-
// blocks, std::exception_ptr, exceptions across indirect calls, cleanups.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

struct tracer {
    const char *name;
    explicit tracer(const char *n) : name(n) { std::printf("+%s\n", name); }
    ~tracer() { std::printf("-%s\n", name); }
};

struct my_error : std::runtime_error {
    int code;
    my_error(const char *what, int c) : std::runtime_error(what), code(c) {}
};

struct other_error {
    double value;
};

static int thrower(int kind) {
    tracer t("thrower");
    switch (kind) {
    case 0: return 42;
    case 1: throw my_error("mine", 7);
    case 2: throw std::out_of_range("range");
    case 3: throw other_error{2.5};
    case 4: throw 17;
    default: throw std::string("string");
    }
}

static int classify(int kind) {
    try {
        tracer t("classify");
        return thrower(kind);
    } catch (const my_error &e) {
        return 100 + e.code;
    } catch (const std::logic_error &e) {
        return 200 + (int)std::string(e.what()).size();
    } catch (other_error e) {
        return 300 + (int)e.value;
    } catch (int i) {
        return 400 + i;
    } catch (...) {
        return 500;
    }
}

static int rethrow_inner(int kind) {
    try {
        try {
            thrower(kind);
        } catch (const std::exception &) {
            std::printf("inner caught, rethrowing\n");
            throw;
        }
    } catch (const my_error &e) {
        return e.code;
    } catch (const std::exception &) {
        return -1;
    }
    return 0;
}

static void may_throw(bool b) noexcept(false) {
    if (b)
        throw std::runtime_error("boom");
}

static int no_throw_wrapper(bool b) noexcept {
    try {
        may_throw(b);
        return 0;
    } catch (...) {
        return 1;
    }
}

struct member_init {
    std::string s;
    int n;
    member_init(int k) try : s(k < 0 ? throw std::invalid_argument("neg") : "ok"), n(k) {
    } catch (const std::invalid_argument &) {
        std::printf("ctor failed\n");
        throw;
    }
};

static std::exception_ptr capture(int kind) {
    try {
        thrower(kind);
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

static int inspect(std::exception_ptr p) {
    if (!p)
        return 0;
    try {
        std::rethrow_exception(p);
    } catch (const std::exception &e) {
        std::printf("captured: %s\n", e.what());
        return 1;
    } catch (...) {
        return 2;
    }
}

using fn_t = int (*)(int);
static int through_pointer(fn_t f, int k) {
    tracer t("ptr");
    return f(k);
}

int main() {
    int total = 0;
    for (int k = 0; k < 6; ++k)
        total += classify(k);
    total += rethrow_inner(1) + rethrow_inner(2);
    total += no_throw_wrapper(true) + no_throw_wrapper(false);
    try {
        member_init m(-1);
        total += m.n;
    } catch (const std::exception &e) {
        total += 1000;
    }
    total += inspect(capture(1)) + inspect(capture(4)) + inspect(capture(0));
    try {
        through_pointer(thrower, 3);
    } catch (const other_error &e) {
        total += (int)(e.value * 2);
    }
    std::printf("total=%d uncaught=%d\n", total, std::uncaught_exceptions());
    return 0;
}
