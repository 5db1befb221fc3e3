// Classes with virtual functions: single, multiple and virtual inheritance,
// pure virtuals, virtual destructors, covariant returns, dynamic_cast,
// typeid, pointers to members, final classes, static members.
#include <cstdio>
#include <memory>
#include <typeinfo>

struct animal {
    virtual ~animal() { std::printf("~animal\n"); }
    virtual const char *sound() const = 0;
    virtual int legs() const { return 4; }
    virtual animal *clone() const = 0;
    static int created;
    animal() { ++created; }
};
int animal::created = 0;

struct dog : animal {
    const char *sound() const override { return "woof"; }
    dog *clone() const override { return new dog(*this); }
    ~dog() override { std::printf("~dog\n"); }
};

struct bird final : animal {
    const char *sound() const override { return "tweet"; }
    int legs() const override { return 2; }
    bird *clone() const override { return new bird(*this); }
};

struct named {
    virtual ~named() = default;
    virtual const char *name() const { return "anon"; }
    int tag = 7;
};

struct robot_dog : dog, named {
    const char *sound() const override { return "beep"; }
    const char *name() const override { return "rd"; }
    robot_dog *clone() const override { return new robot_dog(*this); }
};

// Diamond with virtual inheritance.
struct base {
    int b = 1;
    virtual int id() const { return b; }
    virtual ~base() = default;
};
struct left : virtual base {
    int l = 10;
    int id() const override { return l + b; }
};
struct right : virtual base {
    int r = 100;
};
struct diamond : left, right {
    int d = 1000;
    int id() const override { return d + l + r + b; }
};

struct counter {
    int value = 0;
    void inc() { ++value; }
    void add(int n) { value += n; }
    virtual void vinc() { value += 10; }
    virtual ~counter() = default;
};

static int call_member(counter &c, void (counter::*pm)(), int counter::*field) {
    (c.*pm)();
    return c.*field;
}

static void describe(const animal &a) {
    std::printf("%s says %s with %d legs", typeid(a).name(), a.sound(), a.legs());
    if (auto *n = dynamic_cast<const named *>(&a))
        std::printf(" (named %s)", n->name());
    if (dynamic_cast<const bird *>(&a))
        std::printf(" (a bird)");
    std::printf("\n");
}

static int cast_ref(animal &a) {
    try {
        dog &d = dynamic_cast<dog &>(a);
        return d.legs();
    } catch (const std::bad_cast &) {
        return -1;
    }
}

int main() {
    std::unique_ptr<animal> zoo[] = {std::make_unique<dog>(), std::make_unique<bird>(),
                                     std::make_unique<robot_dog>()};
    for (auto &a : zoo)
        describe(*a);
    std::unique_ptr<animal> copy(zoo[2]->clone());
    describe(*copy);
    diamond dm;
    base &bref = dm;
    left &lref = dm;
    std::printf("%d %d %d\n", bref.id(), lref.id(), static_cast<right &>(dm).r);
    counter c;
    int v = call_member(c, &counter::inc, &counter::value);
    v += call_member(c, &counter::vinc, &counter::value);
    void (counter::*adder)(int) = &counter::add;
    (c.*adder)(5);
    std::printf("%d %d %d %d\n", v, c.value, cast_ref(*zoo[0]), cast_ref(*zoo[1]));
    const animal &first = *zoo[0];
    std::printf("created=%d same=%d\n", animal::created, typeid(first) == typeid(dog));
    return 0;
}
