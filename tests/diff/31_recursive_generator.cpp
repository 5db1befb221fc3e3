// Recursion through coroutines: recursive generators (in-order traversal of
// a binary tree, permutations, subsets), each level pulling from a child
// generator, and a recursive tree of tasks (fibonacci and a tree sum).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

template <class T>
struct result_holder {
  T value{};
  void return_value(T v) { value = std::move(v); }
  T take() { return std::move(value); }
};
template <>
struct result_holder<void> {
  void return_void() noexcept {}
  void take() {}
};

// Lazy task with symmetric-transfer continuation.
template <class T = void>
class task {
public:
  struct promise_type : result_holder<T> {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;
    task get_return_object() noexcept { return task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  task& operator=(task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().take();
  }
  // Starts the task from non-coroutine code; it must complete synchronously.
  T run() {
    h_.resume();
    if (!h_.done()) std::terminate();
    return await_resume();
  }
  bool done() const { return h_.done(); }

private:
  std::coroutine_handle<promise_type> h_;
};
template <typename T>
class generator {
public:
  struct promise_type {
    T current{};
    generator get_return_object() noexcept {
      return generator(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  const T& value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};
struct Node {
  int key;
  std::unique_ptr<Node> left, right;
  explicit Node(int k) : key(k) {}
};

static void insert(std::unique_ptr<Node>& root, int k) {
  if (!root) {
    root = std::make_unique<Node>(k);
    return;
  }
  insert(k < root->key ? root->left : root->right, k);
}

generator<int> inorder(const Node* n) {
  if (!n) co_return;
  for (auto g = inorder(n->left.get()); g.next();) co_yield g.value();
  co_yield n->key;
  for (auto g = inorder(n->right.get()); g.next();) co_yield g.value();
}

// All permutations of digits [0, n) encoded as decimal numbers.
generator<int> perms(int n, int used_mask, int prefix, int depth) {
  if (depth == n) {
    co_yield prefix;
    co_return;
  }
  for (int d = 0; d < n; ++d) {
    if (used_mask & (1 << d)) continue;
    for (auto g = perms(n, used_mask | (1 << d), prefix * 10 + d, depth + 1); g.next();) co_yield g.value();
  }
}

// Subset sums of 1..n.
generator<int> subset_sums(int n) {
  if (n == 0) {
    co_yield 0;
    co_return;
  }
  for (auto g = subset_sums(n - 1); g.next();) {
    co_yield g.value();
    co_yield g.value() + n;
  }
}

task<long> fib(int n) {
  if (n < 2) co_return n;
  long a = co_await fib(n - 1);
  long b = co_await fib(n - 2);
  co_return a + b;
}

task<long> tree_sum(const Node* n) {
  if (!n) co_return 0;
  long l = co_await tree_sum(n->left.get());
  long r = co_await tree_sum(n->right.get());
  co_return l + r + n->key;
}

int main() {
  std::unique_ptr<Node> root;
  unsigned x = 12345;
  for (int i = 0; i < 200; ++i) {
    x = x * 1103515245u + 12345u;
    insert(root, (int)((x >> 8) % 1000));
  }
  {
    int prev = -1, n = 0, sorted = 1;
    long sum = 0;
    printf("inorder first:");
    for (auto g = inorder(root.get()); g.next();) {
      if (g.value() < prev) sorted = 0;
      prev = g.value();
      if (n < 10) printf(" %d", g.value());
      sum += g.value();
      ++n;
    }
    printf(" | n=%d sum=%ld sorted=%d\n", n, sum, sorted);
  }
  printf("tree_sum=%ld\n", tree_sum(root.get()).run());
  {
    int cnt = 0;
    long s = 0;
    for (auto g = perms(5, 0, 0, 0); g.next();) {
      ++cnt;
      s += g.value();
      if (cnt <= 5) printf("perm %05d\n", g.value());
    }
    printf("perms: count=%d sum=%ld\n", cnt, s);
  }
  {
    int hist[40] = {};
    for (auto g = subset_sums(8); g.next();) ++hist[g.value()];
    printf("subset sums of 1..8:");
    for (int i = 0; i <= 36; i += 4) printf(" [%d]=%d", i, hist[i]);
    printf("\n");
  }
  {
    // abandon a deep recursive generator midway
    auto g = inorder(root.get());
    for (int i = 0; i < 57; ++i) g.next();
    printf("57th key=%d (abandoned)\n", g.value());
  }
  printf("fib(20)=%ld\n", fib(20).run());
  return 0;
}
