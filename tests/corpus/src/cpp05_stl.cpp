// Standard library containers and algorithms: std::vector, std::string,
// std::map, std::unordered_map, std::array,
// std::pair/tuple, iterators, string formatting and searching.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

struct record {
    std::string name;
    int score;
    bool operator<(const record &o) const { return score < o.score; }
};

static std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    while (true) {
        auto pos = s.find(sep, start);
        out.push_back(s.substr(start, pos - start));
        if (pos == std::string::npos)
            break;
        start = pos + 1;
    }
    return out;
}

static std::map<std::string, int> word_count(const std::vector<std::string> &words) {
    std::map<std::string, int> m;
    for (const auto &w : words)
        ++m[w];
    return m;
}

static std::string join(const std::vector<std::string> &parts, const std::string &sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += sep;
        out += parts[i];
    }
    return out;
}

static std::tuple<int, double, std::string> stats(const std::vector<record> &rs) {
    int total = 0;
    for (const auto &r : rs)
        total += r.score;
    auto best = std::max_element(rs.begin(), rs.end());
    return {total, rs.empty() ? 0.0 : double(total) / rs.size(), best == rs.end() ? "" : best->name};
}

int main() {
    auto words = split("the quick brown fox jumps over the lazy dog the end", ' ');
    auto counts = word_count(words);
    std::unordered_map<std::string, std::size_t> lengths;
    for (const auto &[w, n] : counts)
        lengths.emplace(w, w.size() * n);

    std::vector<record> rs{{"ann", 90}, {"bob", 72}, {"cyd", 85}};
    rs.emplace_back(record{"dee", 99});
    std::sort(rs.begin(), rs.end());
    auto [total, mean, best] = stats(rs);

    std::vector<int> uniq{3, 1, 4, 1, 5, 9, 2, 6};
    std::sort(uniq.begin(), uniq.end());
    uniq.erase(std::unique(uniq.begin(), uniq.end()), uniq.end());
    std::vector<int> dq;
    for (int x : uniq) {
        if (x % 2)
            dq.insert(dq.begin(), x);
        else
            dq.push_back(x);
    }
    std::array<int, 5> arr{5, 4, 3, 2, 1};
    std::reverse(arr.begin(), arr.end());
    auto it = std::lower_bound(arr.begin(), arr.end(), 3);

    std::string s = "Hello";
    s += ", ";
    s.append("world");
    s.insert(0, ">> ");
    std::transform(s.begin(), s.end(), s.begin(), [](char c) { return c == 'o' ? '0' : c; });
    auto upper = s;
    for (auto &c : upper)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');

    std::vector<std::vector<int>> grid(3, std::vector<int>(4));
    for (std::size_t i = 0; i < grid.size(); ++i)
        for (std::size_t j = 0; j < grid[i].size(); ++j)
            grid[i][j] = int(i * j);
    grid.erase(grid.begin());
    grid.shrink_to_fit();

    std::printf("%s | %s | %d %g %s\n", join(words, "+").c_str(), upper.c_str(), total, mean,
                best.c_str());
    std::printf("the=%d uniq=%zu dq.front=%d lb=%ld len[fox]=%zu grid=%d\n", counts["the"],
                uniq.size(), dq.front(), long(it - arr.begin()), lengths.at("fox"), grid[1][3]);
    std::printf("%s %d\n", std::to_string(3.5).c_str(), std::stoi("123") + (s.find("w0rld") != std::string::npos));
    return 0;
}
