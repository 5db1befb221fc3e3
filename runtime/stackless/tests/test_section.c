/* The default map, built at start-up from the "llcoro_frames" section: two tables placed there
 * the way llcoro emits them (one per translation unit; here two in one file). */
#include "check.h"
#include "llcoro/stackless.h"

static const unsigned char keys[4];
static const unsigned char fn;
static const int32_t slots[] = {0};

static const struct llcoro_call_site sites1[] = {
    {&keys[0], &fn, NULL, 8, 16, 8, 24, 1, 0, slots},
    {&keys[1], &fn, NULL, 8, 16, 8, 24, 1, 0, slots},
};
static const struct llcoro_call_site sites2[] = {
    {&keys[2], &fn, NULL, 8, 16, 8, -1, 1, 0, slots},
};

#define IN_SECTION __attribute__((section(LLCORO_FRAME_SECTION), used, aligned(8)))
static const struct llcoro_frame_table table1 IN_SECTION = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, 2, 0,
                                                            sites1};
static const struct llcoro_frame_table table2 IN_SECTION = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, 1, 0,
                                                            sites2};

int main(void) {
    CHECK(llcoro_section_begin() != NULL);
    CHECK_EQ(llcoro_section_end() - llcoro_section_begin(), 2);
    CHECK_EQ(llcoro_sites_default_status(), LLCORO_OK);
    const struct llcoro_sites *m = llcoro_sites_default();
    CHECK_EQ(llcoro_sites_count(m), 3);
    CHECK(llcoro_sites_lookup(m, &keys[0]) == &sites1[0]);
    CHECK(llcoro_sites_lookup(m, &keys[1]) == &sites1[1]);
    CHECK(llcoro_sites_lookup(m, &keys[2]) == &sites2[0]);
    CHECK(llcoro_sites_lookup(m, &keys[3]) == NULL);
    puts("test_section: ok");
    return 0;
}
