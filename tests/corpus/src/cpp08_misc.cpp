// Modern C++ grab-bag: move semantics and rule of five, unique_ptr and
// shared_ptr/weak_ptr, std::optional, std::variant with std::visit, operator
// overloading, range-based for, structured bindings, placement new,
// new[]/delete[], user-defined literals, spaceship operator, std::span.
#include <compare>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

class buffer {
    char *data_ = nullptr;
    std::size_t size_ = 0;

public:
    buffer() = default;
    explicit buffer(const char *s) : data_(new char[std::strlen(s) + 1]), size_(std::strlen(s)) {
        std::memcpy(data_, s, size_ + 1);
    }
    buffer(const buffer &o) : buffer(o.data_ ? o.data_ : "") {}
    buffer(buffer &&o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    buffer &operator=(buffer o) noexcept {
        swap(o);
        return *this;
    }
    ~buffer() { delete[] data_; }
    void swap(buffer &o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
    }
    std::size_t size() const { return size_; }
    const char *c_str() const { return data_ ? data_ : ""; }
};

struct vec2 {
    double x, y;
    vec2 operator+(const vec2 &o) const { return {x + o.x, y + o.y}; }
    vec2 &operator*=(double k) {
        x *= k;
        y *= k;
        return *this;
    }
    double operator[](int i) const { return i ? y : x; }
    auto operator<=>(const vec2 &) const = default;
    explicit operator bool() const { return x != 0 || y != 0; }
};

constexpr long double operator""_km(long double v) { return v * 1000.0L; }
constexpr unsigned long long operator""_kb(unsigned long long v) { return v * 1024; }

struct circle { double r; };
struct rect { double w, h; };
using shape = std::variant<circle, rect, std::string>;

struct area_visitor {
    double operator()(const circle &c) const { return 3.14159 * c.r * c.r; }
    double operator()(const rect &r) const { return r.w * r.h; }
    double operator()(const std::string &s) const { return double(s.size()); }
};

static std::optional<int> parse_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    return std::nullopt;
}

static int sum_span(std::span<const int> s) {
    int t = 0;
    for (int v : s)
        t += v;
    return t;
}

struct node {
    int value;
    std::vector<std::shared_ptr<node>> children;
    std::weak_ptr<node> parent;
};

int main() {
    buffer a("hello");
    buffer b = a;
    buffer c = std::move(a);
    b = buffer("replaced");
    std::vector<shape> shapes{circle{1.0}, rect{2, 3}, std::string("four")};
    double total = 0;
    for (const auto &s : shapes)
        total += std::visit(area_visitor{}, s);
    auto idx = shapes[1].index();
    auto d = parse_digit('7').value_or(-1) + parse_digit('x').value_or(-1);
    vec2 p{1, 2}, q{3, 4};
    auto r = p + q;
    r *= 2;
    bool less = p < q;
    auto root = std::make_shared<node>(node{1, {}, {}});
    auto child = std::make_shared<node>(node{2, {}, root});
    root->children.push_back(child);
    int parent_value = child->parent.lock() ? child->parent.lock()->value : 0;
    auto owned = std::make_unique<int[]>(4);
    for (int i = 0; i < 4; ++i)
        owned[i] = i * i;
    alignas(vec2) unsigned char raw[sizeof(vec2)];
    vec2 *placed = new (raw) vec2{5, 6};
    double placed_sum = (*placed)[0] + (*placed)[1];
    placed->~vec2();
    int *arr = new int[8]();
    arr[3] = 9;
    int arr3 = arr[3];
    delete[] arr;
    std::vector<std::pair<std::string, int>> kv{{"x", 1}, {"y", 2}};
    int kvsum = 0;
    for (auto &[k, v] : kv)
        kvsum += v + int(k.size());
    int nums[] = {1, 2, 3, 4, 5};
    std::printf("%s %zu %s %g %zu %d %g %d %d\n", b.c_str(), c.size(), a.c_str(), total, idx, d, r[1],
                less, parent_value);
    std::printf("%d %g %d %d %Lg %llu %d %d\n", owned[3], placed_sum, arr3, kvsum, 1.5_km, 4_kb,
                sum_span(nums), bool(r));
    return 0;
}
