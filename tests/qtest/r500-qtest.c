/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "r500-qtest.h"
#include "qobject/qdict.h"

const R500TestModel r500_test_models[4] = {
    { "rv515", 0x7142, false, false, 1 },
    { "rv530", 0x71C2, true, true, 1 },
    { "r520", 0x7100, true, true, 4 },
    { "r580", 0x7249, true, true, 4 },
};

static void find_dev(QPCIDevice *dev, int devfn, void *data)
{
    QPCIDevice **found = data;

    if (!*found) {
        *found = dev;
    } else {
        g_free(dev);
    }
}

void r500_test_start(R500Test *t, const char *model, const char *extra,
                     bool map_bars)
{
    memset(t, 0, sizeof(*t));
    t->model = model;
    t->qts = qtest_initf("-machine q35 -device r500,id=%s,model=%s %s",
                         R500_TEST_ID, model, extra ? extra : "");
    t->bus = qpci_new_pc(t->qts, NULL);
    qpci_device_foreach(t->bus, 0x1002, -1, find_dev, &t->dev);
    g_assert_nonnull(t->dev);
    qpci_device_enable(t->dev);
    if (map_bars) {
        /* BAR0 first: it is the largest and needs its natural alignment. */
        t->vram = qpci_iomap(t->dev, 0, &t->vram_bar_size);
        t->io = qpci_iomap(t->dev, 1, &t->io_bar_size);
        t->mmio = qpci_iomap(t->dev, 2, &t->mmio_bar_size);
    }
}

void r500_test_stop(R500Test *t)
{
    g_free(t->dev);
    qpci_free_pc(t->bus);
    qtest_quit(t->qts);
}

char *r500_qom_str(R500Test *t, const char *prop)
{
    QDict *rsp = qtest_qmp(t->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': %s}}", R500_TEST_ID,
                           prop);
    char *v = g_strdup(qdict_get_try_str(rsp, "return"));

    qobject_unref(rsp);
    return v;
}

/* The card's counter name, if it has it (QMP qom-get of "stats"). */
static bool qom_stat(R500Test *t, const char *name, uint64_t *val)
{
    QDict *rsp = qtest_qmp(t->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': 'stats'}}", R500_TEST_ID);
    QDict *st = qdict_get_qdict(rsp, "return");
    bool has;

    g_assert_nonnull(st);
    has = qdict_haskey(st, name);
    *val = has ? qdict_get_int(st, name) : 0;
    qobject_unref(rsp);
    return has;
}

uint64_t r500_qom_stat(R500Test *t, const char *name)
{
    uint64_t v;

    g_assert_true(qom_stat(t, name, &v));
    return v;
}

bool r500_qom_has_stat(R500Test *t, const char *name)
{
    uint64_t v;

    return qom_stat(t, name, &v);
}

uint32_t r500_rreg(R500Test *t, uint32_t reg)
{
    return qpci_io_readl(t->dev, t->mmio, reg);
}

void r500_wreg(R500Test *t, uint32_t reg, uint32_t val)
{
    qpci_io_writel(t->dev, t->mmio, reg, val);
}

/* r100_pll_rreg/wreg: byte write of the index, PLL_WR_EN for writes. */
uint32_t r500_rreg_pll(R500Test *t, uint32_t idx)
{
    qpci_io_writeb(t->dev, t->mmio, R_CLOCK_CNTL_INDEX, idx & 0x3f);
    return r500_rreg(t, R_CLOCK_CNTL_DATA);
}

void r500_wreg_pll(R500Test *t, uint32_t idx, uint32_t val)
{
    qpci_io_writeb(t->dev, t->mmio, R_CLOCK_CNTL_INDEX, (idx & 0x3f) | 0x80);
    r500_wreg(t, R_CLOCK_CNTL_DATA, val);
}

/* rv515_mc_rreg/wreg: 0x7F0000 | reg to read, 0xFF0000 | reg to write. */
uint32_t r500_rreg_mc(R500Test *t, uint32_t idx)
{
    uint32_t v;

    r500_wreg(t, R_MC_IND_INDEX, 0x7f0000 | (idx & 0xffff));
    v = r500_rreg(t, R_MC_IND_DATA);
    r500_wreg(t, R_MC_IND_INDEX, 0);
    return v;
}

void r500_wreg_mc(R500Test *t, uint32_t idx, uint32_t val)
{
    r500_wreg(t, R_MC_IND_INDEX, 0xff0000 | (idx & 0xffff));
    r500_wreg(t, R_MC_IND_DATA, val);
    r500_wreg(t, R_MC_IND_INDEX, 0);
}

uint32_t r500_rreg_pcie(R500Test *t, uint32_t idx)
{
    r500_wreg(t, R_PCIE_INDEX, idx & 0x7ff);
    return r500_rreg(t, R_PCIE_DATA);
}

void r500_wreg_pcie(R500Test *t, uint32_t idx, uint32_t val)
{
    r500_wreg(t, R_PCIE_INDEX, idx & 0x7ff);
    r500_wreg(t, R_PCIE_DATA, val);
}

uint32_t r500_bar_probe(R500Test *t, uint8_t off)
{
    uint32_t saved = qpci_config_readl(t->dev, off);
    uint32_t mask;

    qpci_config_writel(t->dev, off, 0xffffffff);
    mask = qpci_config_readl(t->dev, off);
    qpci_config_writel(t->dev, off, saved);
    return mask;
}

/* Next token of a PPM header; skips whitespace and comments. */
static bool ppm_token(const uint8_t *d, size_t len, size_t *pos,
                      unsigned long *val)
{
    unsigned long v = 0;
    size_t start;

    while (*pos < len && (g_ascii_isspace(d[*pos]) || d[*pos] == '#')) {
        if (d[*pos] == '#') {
            while (*pos < len && d[*pos] != '\n') {
                (*pos)++;
            }
        } else {
            (*pos)++;
        }
    }
    start = *pos;
    while (*pos < len && g_ascii_isdigit(d[*pos]) && *pos - start < 9) {
        v = v * 10 + (d[(*pos)++] - '0');
    }
    *val = v;
    return *pos > start;
}

bool r500_ppm_parse(const uint8_t *d, size_t len, R500Image *img)
{
    unsigned long w, h, maxval;
    size_t pos = 2;

    memset(img, 0, sizeof(*img));
    if (len < 2 || d[0] != 'P' || d[1] != '6' ||
        !ppm_token(d, len, &pos, &w) || !ppm_token(d, len, &pos, &h) ||
        !ppm_token(d, len, &pos, &maxval) || maxval != 255 ||
        pos >= len || !g_ascii_isspace(d[pos]) || !w || !h ||
        (len - pos - 1) / 3 / w < h) {
        return false;
    }
    pos++;
    img->width = w;
    img->height = h;
    img->rgb = g_new(uint32_t, w * h);
    for (size_t i = 0; i < w * h; i++, pos += 3) {
        img->rgb[i] = d[pos] << 16 | d[pos + 1] << 8 | d[pos + 2];
    }
    return true;
}

void r500_screendump(R500Test *t, int head, R500Image *img)
{
    char *path = g_strdup_printf("%s/r500-screendump-%d.ppm", g_get_tmp_dir(),
                                 getpid());
    gchar *data = NULL;
    gsize len = 0;
    QDict *rsp;

    rsp = qtest_qmp(t->qts, "{'execute': 'screendump', 'arguments': "
                    "{'filename': %s, 'device': %s, 'head': %d}}",
                    path, R500_TEST_ID, head);
    g_assert_false(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    g_assert_true(r500_ppm_parse((const uint8_t *)data, len, img));
    unlink(path);
    g_free(data);
    g_free(path);
}

void r500_image_free(R500Image *img)
{
    g_free(img->rgb);
    img->rgb = NULL;
}

typedef struct ModelTest {
    void (*fn)(const R500TestModel *m);
    const R500TestModel *m;
} ModelTest;

static void run_model_test(const void *data)
{
    const ModelTest *mt = data;

    mt->fn(mt->m);
}

void r500_add_model_tests(const char *name,
                          void (*fn)(const R500TestModel *m))
{
    for (unsigned i = 0; i < G_N_ELEMENTS(r500_test_models); i++) {
        ModelTest *mt = g_new0(ModelTest, 1);
        char *path = g_strdup_printf("/r500/%s/%s", r500_test_models[i].name,
                                     name);

        mt->fn = fn;
        mt->m = &r500_test_models[i];
        qtest_add_data_func_full(path, mt, run_model_test, g_free);
        g_free(path);
    }
}
