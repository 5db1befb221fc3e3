// Recursion through coroutines: recursive generators (in-order traversal of
// a binary tree, permutations, subsets), each level pulling from a child
// generator, and a recursive tree of tasks (fibonacci and a tree sum).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

#include "support/task.hpp"
#include "support/generator.hpp"
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
