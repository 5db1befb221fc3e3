// Generators of move-only values (std::unique_ptr) yielded by rvalue and
// moved out by the consumer; generator objects moved and move-assigned
// while suspended; yielding references to a local that the consumer
// mutates through the generator.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>

template <class T>
class gen {
public:
  struct promise_type {
    T* current = nullptr;
    gen get_return_object() noexcept { return gen(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    // The yielded object (a temporary or a local) stays alive while suspended.
    std::suspend_always yield_value(T& v) noexcept {
      current = std::addressof(v);
      return {};
    }
    std::suspend_always yield_value(T&& v) noexcept {
      current = std::addressof(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit gen(std::coroutine_handle<promise_type> h) : h_(h) {}
  gen(gen&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  gen& operator=(gen&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~gen() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  T& ref() { return *h_.promise().current; }
  T take() { return std::move(*h_.promise().current); }
  explicit operator bool() const { return (bool)h_; }

private:
  std::coroutine_handle<promise_type> h_;
};

static int live = 0;
struct Res {
  int id;
  explicit Res(int i) : id(i) { ++live; }
  ~Res() {
    --live;
    printf("    ~Res(%d)\n", id);
  }
};

gen<std::unique_ptr<Res>> resources(int n) {
  for (int i = 0; i < n; ++i) {
    co_yield std::make_unique<Res>(i);  // temporary unique_ptr
  }
  auto keep = std::make_unique<Res>(100);
  co_yield std::move(keep);  // the consumer may steal it or not
  printf("    after yielding keep: keep is %s\n", keep ? "still owned" : "stolen");
}

gen<int> counter_ref(int n) {
  int value = 0;
  for (int i = 0; i < n; ++i) {
    co_yield value;  // consumer may modify `value` through ref()
    value += 1;
  }
  printf("    counter_ref final value=%d\n", value);
}

gen<std::string> words() {
  std::string w = "alpha";
  co_yield w;
  w = "a much longer second word that needs the heap";
  co_yield w;
  co_yield std::string("temporary third");
}

int main() {
  printf("take every other resource:\n");
  {
    auto g = resources(5);
    int i = 0;
    while (g.next()) {
      if (i % 2 == 0) {
        std::unique_ptr<Res> r = g.take();
        printf("  took Res(%d)\n", r->id);
      } else {
        printf("  left Res(%d) in the generator\n", g.ref()->id);
      }
      ++i;
    }
  }
  printf("live=%d\n", live);
  printf("steal the last one:\n");
  {
    auto g = resources(1);
    g.next();
    g.next();
    std::unique_ptr<Res> stolen = g.take();
    g.next();
    printf("  stolen id=%d\n", stolen->id);
  }
  printf("live=%d\n", live);
  printf("mutate through reference:\n");
  {
    auto g = counter_ref(5);
    while (g.next()) {
      printf("  saw %d\n", g.ref());
      g.ref() *= 10;
    }
  }
  printf("move generators while suspended:\n");
  {
    auto a = words();
    a.next();
    auto b = std::move(a);
    printf("  a valid=%d b valid=%d first=%s\n", (int)(bool)a, (int)(bool)b, b.ref().c_str());
    b.next();
    std::string w2 = b.ref();
    a = words();  // a gets a new coroutine
    a.next();
    printf("  w2 len=%zu; new a first=%s\n", w2.size(), a.ref().c_str());
    b = std::move(a);  // b's old coroutine destroyed while suspended
    b.next();
    b.next();
    printf("  b now at '%s'\n", b.ref().c_str());
    auto r1 = resources(3), r2 = resources(2);
    r1.next();
    r2.next();
    r1.next();
    r1 = std::move(r2);  // destroys r1's suspended coroutine (and its Res)
    r1.next();
    printf("  r1 now at Res(%d)\n", r1.ref()->id);
  }
  printf("live=%d\n", live);
  return live;
}
