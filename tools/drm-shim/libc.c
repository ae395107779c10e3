/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fake render node, seen through libc: the functions libdrm and
 * Mesa's loader use to find and open a DRM device (open, stat, readlink,
 * realpath, opendir/readdir, fopen, access) see /dev/dri/renderD128 as a
 * radeon render node of our chip, and its descriptors reach our ioctl and
 * mmap.  Real /dev/dri entries are hidden, so Mesa always picks ours.
 *
 * What libdrm 2.4.114 reads (xf86drm.c): stat of the node, the sysfs
 * directory /sys/dev/char/226:128/device/drm, readlink of .../subsystem
 * (bus type), realpath of .../device, the files vendor, device,
 * subsystem_vendor, subsystem_device, revision (or config) and uevent
 * (PCI_SLOT_NAME), and /sys/dev/char/226:128/uevent (DEVNAME).  Mesa's
 * loader reads .../device/vendor and .../device/device with open().
 */
/* Our open/stat/mmap must be those symbols, not the *64 redirects. */
#undef _FILE_OFFSET_BITS
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "shim.h"

#define PUBLIC __attribute__((visibility("default")))

#define NODE_DIR        "/dev/dri"
#define NODE_NAME       "renderD128"
#define NODE_PATH       NODE_DIR "/" NODE_NAME
#define SYS_DEV         "/sys/dev/char/226:128"
#define SYS_DEVICE      SYS_DEV "/device"

/* ---- the real functions ---- */

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static int (*real_close)(int);
static int (*real_stat)(const char *, struct stat *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_access)(const char *, int);
static ssize_t (*real_readlink)(const char *, char *, size_t);
static char *(*real_realpath)(const char *, char *);
static DIR *(*real_opendir)(const char *);
static struct dirent *(*real_readdir)(DIR *);
static struct dirent64 *(*real_readdir64)(DIR *);
static int (*real_closedir)(DIR *);
static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int (*real_sigaction)(int, const struct sigaction *,
                             struct sigaction *);
static int (*real_fcntl)(int, int, ...);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);

static void *resolve(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);

    if (!f) {
        fprintf(stderr, "r500-drm-shim: cannot resolve %s\n", name);
        abort();
    }
    return f;
}

__attribute__((constructor))
static void shim_resolve(void)
{
    real_open = resolve("open");
    real_openat = resolve("openat");
    real_fopen = resolve("fopen");
    real_close = resolve("close");
    real_stat = resolve("stat");
    real_lstat = resolve("lstat");
    real_fstat = resolve("fstat");
    real_fstatat = resolve("fstatat");
    real_access = resolve("access");
    real_readlink = resolve("readlink");
    real_realpath = resolve("realpath");
    real_opendir = resolve("opendir");
    real_readdir = resolve("readdir");
    real_readdir64 = resolve("readdir64");
    real_closedir = resolve("closedir");
    real_ioctl = resolve("ioctl");
    real_mmap = resolve("mmap");
    real_munmap = resolve("munmap");
    real_sigaction = resolve("sigaction");
    real_fcntl = resolve("fcntl");
    real_dup = resolve("dup");
    real_dup2 = resolve("dup2");
    real_dup3 = resolve("dup3");
}

int shim_real_open(const char *path, int flags, mode_t mode)
{
    return real_open(path, flags, mode);
}

int shim_real_close(int fd)
{
    return real_close(fd);
}

void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
                     off_t off)
{
    return real_mmap(addr, len, prot, flags, fd, off);
}

int shim_real_sigaction(int sig, const struct sigaction *act,
                        struct sigaction *old)
{
    return real_sigaction(sig, act, old);
}

/* ---- our descriptors ---- */

/*
 * The chip's host-GL renderer thread sees the machine as it is: its EGL
 * must find the host's devices (or none), never this shim's node, which
 * would have it render on the chip it serves (and wait for shim.lock,
 * held by the caller that waits for it).  None of its descriptors is
 * ours.
 */
static bool passthrough(void)
{
#ifdef R500_HAVE_GL
    return r500_gl_on_thread();
#else
    return false;               /* a core without GL has no such thread */
#endif
}


/* Set once a descriptor of ours exists, so unrelated calls stay cheap. */
static volatile int have_fds;

static ShimFile *fd_file(int fd)
{
    ShimFile *f;

    if (!have_fds || fd < 0 || passthrough()) {
        return NULL;
    }
    g_mutex_lock(&shim.lock);
    f = shim.fds ? g_hash_table_lookup(shim.fds, GINT_TO_POINTER(fd)) : NULL;
    g_mutex_unlock(&shim.lock);
    return f;
}

static void fd_add(int fd, ShimFile *f)
{
    g_mutex_lock(&shim.lock);
    f->fds++;
    g_hash_table_insert(shim.fds, GINT_TO_POINTER(fd), f);
    have_fds = 1;
    g_mutex_unlock(&shim.lock);
}

/* Forget fd (closed or reused by dup2); drops the file's last reference. */
static void fd_forget(int fd)
{
    ShimFile *f;

    if (!have_fds || passthrough()) {
        return;
    }
    g_mutex_lock(&shim.lock);
    f = shim.fds ? g_hash_table_lookup(shim.fds, GINT_TO_POINTER(fd)) : NULL;
    if (f) {
        g_hash_table_remove(shim.fds, GINT_TO_POINTER(fd));
        shim_file_unref(f);
    }
    g_mutex_unlock(&shim.lock);
}

static int open_node(int flags)
{
    char *err = NULL;
    ShimFile *f;
    int fd;

    g_mutex_lock(&shim.lock);
    if (!shim.ready && !shim.failed) {
        if (!kms_init(&err)) {
            fprintf(stderr, "r500-drm-shim: %s\n", err);
            g_free(err);
            shim.failed = true;
        }
    }
    if (shim.failed) {
        g_mutex_unlock(&shim.lock);
        errno = ENODEV;
        return -1;
    }
    f = shim_file_new();
    g_mutex_unlock(&shim.lock);

    /* A real descriptor, so close/dup/poll behave; ioctls never reach it. */
    fd = real_open("/dev/null", O_RDWR | (flags & O_CLOEXEC));
    if (fd < 0) {
        g_mutex_lock(&shim.lock);
        shim_file_unref(f);
        g_mutex_unlock(&shim.lock);
        return -1;
    }
    fd_add(fd, f);
    shim_log(1, "open %s -> fd %d", NODE_PATH, fd);
    return fd;
}

/* ---- the fake files ---- */

static char *pci_config(gsize *len)
{
    const R500ModelInfo *m = r500_model_info(shim.model);
    /* Just the 64-byte header libdrm reads (parse_config_sysfs_file). */
    uint8_t *c = g_malloc0(64);

    c[0] = 0x02; c[1] = 0x10;                   /* vendor 0x1002 */
    c[2] = m->device_id; c[3] = m->device_id >> 8;
    c[0x0B] = 0x03;                             /* class 0x030000, VGA */
    c[0x2C] = 0xF4; c[0x2D] = 0x1A;             /* subsystem 1af4:1100 */
    c[0x2E] = 0x00; c[0x2F] = 0x11;
    *len = 64;
    return (char *)c;
}

/* Contents of a fake file, or NULL when path is not one of ours. */
static char *fake_file(const char *path, gsize *len)
{
    const R500ModelInfo *m;
    char *s = NULL;

    if (strncmp(path, SYS_DEV "/", sizeof(SYS_DEV)) != 0) {
        return NULL;
    }
    m = r500_model_info(shim.model);
    path += sizeof(SYS_DEV);
    if (!strcmp(path, "uevent")) {
        s = g_strdup("MAJOR=226\nMINOR=128\nDEVNAME=dri/" NODE_NAME "\n");
    } else if (!strcmp(path, "device/vendor")) {
        s = g_strdup("0x1002\n");
    } else if (!strcmp(path, "device/device")) {
        s = g_strdup_printf("0x%04x\n", m->device_id);
    } else if (!strcmp(path, "device/subsystem_vendor")) {
        s = g_strdup("0x1af4\n");
    } else if (!strcmp(path, "device/subsystem_device")) {
        s = g_strdup("0x1100\n");
    } else if (!strcmp(path, "device/revision")) {
        s = g_strdup("0x00\n");
    } else if (!strcmp(path, "device/class")) {
        s = g_strdup("0x030000\n");
    } else if (!strcmp(path, "device/boot_vga")) {
        s = g_strdup("1\n");
    } else if (!strcmp(path, "device/uevent")) {
        s = g_strdup_printf("DRIVER=radeon\nPCI_CLASS=30000\n"
                            "PCI_ID=1002:%04X\nPCI_SUBSYS_ID=1AF4:1100\n"
                            "PCI_SLOT_NAME=0000:01:00.0\n"
                            "MODALIAS=pci:v00001002d0000%04Xsv00001AF4"
                            "sd00001100bc03sc00i00\n",
                            m->device_id, m->device_id);
    } else if (!strcmp(path, "device/config")) {
        return pci_config(len);
    } else {
        return NULL;
    }
    *len = strlen(s);
    return s;
}

/* A read-only descriptor holding the fake file's bytes. */
static int fake_file_fd(const char *data, gsize len, int flags)
{
    int fd = memfd_create("r500-sysfs", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);

    if (fd < 0) {
        return -1;
    }
    if (write(fd, data, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET)) {
        real_close(fd);
        errno = EIO;
        return -1;
    }
    return fd;
}

typedef enum FakeKind { FAKE_NONE, FAKE_NODE, FAKE_DIR, FAKE_FILE } FakeKind;

static FakeKind fake_kind(const char *path)
{
    if (passthrough()) {
        return FAKE_NONE;
    }
    gsize len;
    char *s;

    if (!path) {
        return FAKE_NONE;
    }
    if (!strcmp(path, NODE_PATH)) {
        return FAKE_NODE;
    }
    if (!strcmp(path, NODE_DIR) || !strcmp(path, SYS_DEV) ||
        !strcmp(path, SYS_DEVICE) || !strcmp(path, SYS_DEVICE "/drm") ||
        !strcmp(path, SYS_DEVICE "/drm/" NODE_NAME)) {
        return FAKE_DIR;
    }
    s = fake_file(path, &len);
    g_free(s);
    return s ? FAKE_FILE : FAKE_NONE;
}

static void fill_stat(FakeKind k, struct stat *st)
{
    memset(st, 0, sizeof(*st));
    st->st_nlink = 1;
    st->st_blksize = 4096;
    switch (k) {
    case FAKE_NODE:
        st->st_mode = S_IFCHR | 0666;
        st->st_rdev = makedev(SHIM_DRM_MAJOR, SHIM_RENDER_MINOR);
        break;
    case FAKE_DIR:
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        break;
    default:
        st->st_mode = S_IFREG | 0444;
        st->st_size = 4096;
        break;
    }
}

/* ---- interposed: opening ---- */

static int open_common(const char *path, int flags, mode_t mode, bool *ours)
{
    FakeKind k = fake_kind(path);
    gsize len;
    char *s;
    int fd;

    *ours = true;
    switch (k) {
    case FAKE_NODE:
        return open_node(flags);
    case FAKE_FILE:
        s = fake_file(path, &len);
        fd = fake_file_fd(s, len, flags);
        g_free(s);
        return fd;
    case FAKE_DIR:
        errno = EISDIR;
        return -1;
    default:
        *ours = false;
        return -1;
    }
}

PUBLIC int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    bool ours;
    int fd;

    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    fd = open_common(path, flags, mode, &ours);
    return ours ? fd : real_open(path, flags, mode);
}
PUBLIC int open64(const char *path, int flags, ...)
    __attribute__((alias("open")));

PUBLIC int __open_2(const char *path, int flags);
PUBLIC int __open_2(const char *path, int flags)
{
    return open(path, flags);
}
PUBLIC int __open64_2(const char *path, int flags)
    __attribute__((alias("__open_2")));

PUBLIC int openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    bool ours = false;
    int fd = -1;

    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (path[0] == '/') {
        fd = open_common(path, flags, mode, &ours);
    }
    return ours ? fd : real_openat(dirfd, path, flags, mode);
}
PUBLIC int openat64(int dirfd, const char *path, int flags, ...)
    __attribute__((alias("openat")));

PUBLIC FILE *fopen(const char *path, const char *mode)
{
    gsize len;
    char *s = path && !passthrough() ? fake_file(path, &len) : NULL;
    FILE *f;
    int fd;

    if (!s) {
        return real_fopen(path, mode);
    }
    fd = fake_file_fd(s, len, O_CLOEXEC);
    g_free(s);
    if (fd < 0) {
        return NULL;
    }
    f = fdopen(fd, "r");
    if (!f) {
        real_close(fd);
    }
    return f;
}
PUBLIC FILE *fopen64(const char *path, const char *mode)
    __attribute__((alias("fopen")));

PUBLIC int close(int fd)
{
    fd_forget(fd);
    return real_close(fd);
}

/* ---- interposed: inspecting ---- */

/* Fill st for one of our paths; false for every other path. */
static bool fake_stat(const char *path, struct stat *st)
{
    FakeKind k = fake_kind(path);

    if (k == FAKE_NONE) {
        return false;
    }
    fill_stat(k, st);
    return true;
}

PUBLIC int stat(const char *path, struct stat *st)
{
    return fake_stat(path, st) ? 0 : real_stat(path, st);
}

/* struct stat64 and struct stat are one layout on 64-bit glibc. */
PUBLIC int stat64(const char *path, struct stat64 *st)
{
    return stat(path, (struct stat *)st);
}

PUBLIC int lstat(const char *path, struct stat *st)
{
    return fake_stat(path, st) ? 0 : real_lstat(path, st);
}

PUBLIC int lstat64(const char *path, struct stat64 *st)
{
    return lstat(path, (struct stat *)st);
}

PUBLIC int fstat(int fd, struct stat *st)
{
    if (fd_file(fd)) {
        fill_stat(FAKE_NODE, st);
        return 0;
    }
    return real_fstat(fd, st);
}
PUBLIC int fstat64(int fd, struct stat64 *st)
{
    return fstat(fd, (struct stat *)st);
}

PUBLIC int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    if ((flags & AT_EMPTY_PATH) && !path[0] && fd_file(dirfd)) {
        fill_stat(FAKE_NODE, st);
        return 0;
    }
    if (path[0] == '/' && fake_stat(path, st)) {
        return 0;
    }
    return real_fstatat(dirfd, path, st, flags);
}
PUBLIC int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
    return fstatat(dirfd, path, (struct stat *)st, flags);
}

PUBLIC int access(const char *path, int mode)
{
    if (fake_kind(path) != FAKE_NONE) {
        return 0;
    }
    return real_access(path, mode);
}

PUBLIC ssize_t readlink(const char *path, char *buf, size_t size)
{
    static const char link[] = "../../../bus/pci";

    if (!strcmp(path, SYS_DEVICE "/subsystem")) {
        size_t n = MIN(size, sizeof(link) - 1);
        memcpy(buf, link, n);
        return n;
    }
    if (!strcmp(path, SYS_DEVICE "/driver")) {
        static const char drv[] = "../../../bus/pci/drivers/radeon";
        size_t n = MIN(size, sizeof(drv) - 1);
        memcpy(buf, drv, n);
        return n;
    }
    return real_readlink(path, buf, size);
}

PUBLIC char *realpath(const char *path, char *resolved)
{
    if (fake_kind(path) != FAKE_NONE) {
        if (!resolved) {
            return strdup(path);
        }
        return strcpy(resolved, path);
    }
    return real_realpath(path, resolved);
}

/* ---- interposed: directories ---- */

#define FAKE_DIR_MAGIC 0x52353030u

typedef struct FakeDir {
    uint32_t magic;
    const char *entry;          /* the one entry, then end */
    int pos;
    struct dirent d;
    struct dirent64 d64;
} FakeDir;

static GHashTable *fake_dirs;   /* FakeDir * set, under shim.lock */

static FakeDir *as_fake_dir(DIR *dir)
{
    FakeDir *fd;

    if (passthrough()) {
        return NULL;
    }
    g_mutex_lock(&shim.lock);
    fd = fake_dirs && g_hash_table_contains(fake_dirs, dir) ? (FakeDir *)dir
                                                             : NULL;
    g_mutex_unlock(&shim.lock);
    return fd;
}

PUBLIC DIR *opendir(const char *name)
{
    FakeDir *d;

    if (passthrough() ||
        (strcmp(name, NODE_DIR) && strcmp(name, SYS_DEVICE "/drm"))) {
        return real_opendir(name);
    }
    d = g_new0(FakeDir, 1);
    d->magic = FAKE_DIR_MAGIC;
    d->entry = NODE_NAME;
    g_mutex_lock(&shim.lock);
    if (!fake_dirs) {
        fake_dirs = g_hash_table_new(NULL, NULL);
    }
    g_hash_table_add(fake_dirs, d);
    g_mutex_unlock(&shim.lock);
    return (DIR *)d;
}

PUBLIC struct dirent *readdir(DIR *dir)
{
    FakeDir *d = as_fake_dir(dir);

    if (!d) {
        return real_readdir(dir);
    }
    if (d->pos++ > 0) {
        return NULL;
    }
    memset(&d->d, 0, sizeof(d->d));
    d->d.d_type = DT_CHR;
    g_strlcpy(d->d.d_name, d->entry, sizeof(d->d.d_name));
    return &d->d;
}

PUBLIC struct dirent64 *readdir64(DIR *dir)
{
    FakeDir *d = as_fake_dir(dir);

    if (!d) {
        return real_readdir64(dir);
    }
    if (d->pos++ > 0) {
        return NULL;
    }
    memset(&d->d64, 0, sizeof(d->d64));
    d->d64.d_type = DT_CHR;
    g_strlcpy(d->d64.d_name, d->entry, sizeof(d->d64.d_name));
    return &d->d64;
}

PUBLIC int closedir(DIR *dir)
{
    FakeDir *d = as_fake_dir(dir);

    if (!d) {
        return real_closedir(dir);
    }
    g_mutex_lock(&shim.lock);
    g_hash_table_remove(fake_dirs, d);
    g_mutex_unlock(&shim.lock);
    g_free(d);
    return 0;
}

/* ---- interposed: using the device ---- */

PUBLIC int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    void *arg;

    va_start(ap, request);
    arg = va_arg(ap, void *);
    va_end(ap);
    if (fd_file(fd)) {
        return shim_ioctl(fd, request, arg);
    }
    return real_ioctl(fd, request, arg);
}

PUBLIC void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                  off_t off)
{
    if (fd_file(fd)) {
        return gem_mmap((uint64_t)off, len, prot, flags);
    }
    return real_mmap(addr, len, prot, flags, fd, off);
}
PUBLIC void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                    off_t off) __attribute__((alias("mmap")));

/* A view of VRAM unmapped is no longer one the holds protect (hold.c). */
PUBLIC int munmap(void *addr, size_t len)
{
    hold_view_remove(addr, len);
    return real_munmap(addr, len);
}

/* SIGSEGV is the holds' (hold.c): the application's action is kept. */
PUBLIC int sigaction(int sig, const struct sigaction *act,
                     struct sigaction *old)
{
    if (sig == SIGSEGV && hold_sigaction(act, old)) {
        return 0;
    }
    return real_sigaction(sig, act, old);
}

PUBLIC int fcntl(int fd, int cmd, ...)
{
    ShimFile *f = fd_file(fd);
    va_list ap;
    void *arg;
    int r;

    va_start(ap, cmd);
    arg = va_arg(ap, void *);
    va_end(ap);
    r = real_fcntl(fd, cmd, arg);
    if (f && r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {
        fd_add(r, f);
    }
    return r;
}
PUBLIC int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

PUBLIC int dup(int fd)
{
    ShimFile *f = fd_file(fd);
    int r = real_dup(fd);

    if (f && r >= 0) {
        fd_add(r, f);
    }
    return r;
}

PUBLIC int dup2(int fd, int fd2)
{
    ShimFile *f = fd_file(fd);
    int r;

    if (fd == fd2) {
        return real_dup2(fd, fd2);
    }
    r = real_dup2(fd, fd2);
    if (r >= 0) {
        fd_forget(fd2);
        if (f) {
            fd_add(r, f);
        }
    }
    return r;
}

PUBLIC int dup3(int fd, int fd2, int flags)
{
    ShimFile *f = fd_file(fd);
    int r = real_dup3(fd, fd2, flags);

    if (r >= 0) {
        fd_forget(fd2);
        if (f) {
            fd_add(r, f);
        }
    }
    return r;
}
