// co_yield inside nested loops, switch statements (with fallthrough,
// default, nested switch), break/continue around suspension points,
// do-while, and goto jumping across suspension points.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/generator.hpp"
generator<int> nested(int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      if ((i + j) % 3 == 0) continue;
      for (int k = 0; k < 3; ++k) {
        if (k == 2 && j == 1) break;
        co_yield i * 100 + j * 10 + k;
      }
    }
  }
}

generator<int> lexer(const char* s) {
  // token kinds: 1 = number (value yielded next), 2 = plus, 3 = minus,
  // 4 = star, 9 = unknown; whitespace skipped
  for (int pos = 0; s[pos];) {
    char c = s[pos];
    switch (c) {
      case ' ':
      case '\t':
        ++pos;
        continue;
      case '+':
        co_yield 2;
        ++pos;
        break;
      case '-':
        co_yield 3;
        ++pos;
        break;
      case '*':
        co_yield 4;
        [[fallthrough]];
      case '#':  // '*' also counts as a marker
        co_yield 40;
        ++pos;
        break;
      default:
        if (c >= '0' && c <= '9') {
          int v = 0;
          do {
            v = v * 10 + (s[pos] - '0');
            ++pos;
          } while (s[pos] >= '0' && s[pos] <= '9');
          co_yield 1;
          co_yield v;
        } else {
          switch (c) {
            case '(':
              co_yield 5;
              break;
            case ')':
              co_yield 6;
              break;
            default:
              co_yield 9;
          }
          ++pos;
        }
    }
  }
  co_yield 0;  // end of input
}

generator<int> with_goto(int limit) {
  int i = 0;
  int restarts = 0;
again:
  while (i < limit) {
    co_yield i;
    i += 3;
    if (i == 9 && restarts == 0) {
      ++restarts;
      i = 1;
      co_yield -1;
      goto again;
    }
  }
  if (restarts < 2) {
    ++restarts;
    i = limit - 2;
    co_yield -2;
    goto again;
  }
}

generator<int> state_switch(int steps) {
  int state = 0;
  for (int t = 0; t < steps; ++t) {
    switch (state) {
      case 0:
        co_yield 10;
        state = 1;
        break;
      case 1:
        co_yield 11;
        state = (t % 2) ? 2 : 0;
        break;
      case 2: {
        int local = t * 2;
        co_yield 20 + local;
        co_yield 21 + local;
        state = 3;
        break;
      }
      default:
        co_yield 99;
        state = 0;
    }
  }
}

static void dump(const char* name, generator<int> g) {
  long sum = 0;
  int n = 0;
  printf("%s:", name);
  while (g.next()) {
    if (n < 40) printf(" %d", g.value());
    sum += g.value();
    ++n;
  }
  printf(" | n=%d sum=%ld\n", n, sum);
}

int main() {
  dump("nested", nested(7));
  dump("lexer", lexer("12+ 345 *(7-x)#"));
  dump("goto", with_goto(12));
  dump("state", state_switch(15));
  return 0;
}
