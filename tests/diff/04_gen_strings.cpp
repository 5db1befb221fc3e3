// Generators yielding std::string: splitting, building strings across
// suspends, yielding moved strings, string locals with heap storage.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

class string_gen {
public:
  struct promise_type {
    std::string current;
    string_gen get_return_object() noexcept {
      return string_gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(std::string v) noexcept {
      current = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit string_gen(std::coroutine_handle<promise_type> h) : h_(h) {}
  string_gen(string_gen&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~string_gen() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  const std::string& value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

string_gen split(std::string text, char sep) {
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      co_yield cur;
      cur.clear();
    } else {
      cur += c;
    }
  }
  co_yield std::move(cur);
}

string_gen pyramid(int n) {
  std::string line;
  for (int i = 0; i < n; ++i) {
    line += (char)('a' + i);
    co_yield line;
  }
  // a long string (heap allocated) kept across suspends
  std::string big(200, '#');
  co_yield big;
  big.replace(10, 5, "HELLO");
  co_yield big.substr(5, 20);
}

string_gen numbers_as_words(int n) {
  static const char* const words[] = {"zero", "one", "two", "three", "four",
                                      "five", "six", "seven", "eight", "nine"};
  for (int i = 0; i < n; ++i) {
    std::string s;
    int v = i * 37 % 1000;
    std::string digits = std::to_string(v);
    for (char d : digits) {
      if (!s.empty()) s += '-';
      s += words[d - '0'];
    }
    co_yield s;
  }
}

int main() {
  {
    auto g = split("alpha,beta,,gamma,a much longer token that is not small,end", ',');
    int i = 0;
    while (g.next()) printf("split[%d]='%s'\n", i++, g.value().c_str());
  }
  {
    auto g = pyramid(6);
    while (g.next()) printf("pyr '%s' len=%zu\n", g.value().size() > 40 ? "<long>" : g.value().c_str(), g.value().size());
  }
  {
    auto g = numbers_as_words(8);
    while (g.next()) printf("word %s\n", g.value().c_str());
  }
  {
    auto g = split("never resumed but owns a long string that must be freed properly", ' ');
    g.next();
    printf("first only: %s (generator destroyed early)\n", g.value().c_str());
  }
  return 0;
}
