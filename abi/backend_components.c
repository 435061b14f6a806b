/* backend_components.c — keeps Open MPI's plugins' own MPI calls inside Open MPI: a plugin it
 * loads later (mca_osc_pt2pt.so calls PMPI_Op_f2c) would bind them to this library's exports. */
#define _GNU_SOURCE /* RTLD_DEEPBIND, dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aface.h"

/* Whether the ELF image at m (n bytes) needs libmpi.so.40 and leaves an MPI_ or PMPI_ symbol
 * undefined: a plugin whose MPI calls must bind to Open MPI. Any malformed image: 0. */
static int calls_mpi(const unsigned char *m, size_t n)
{
    const Elf64_Ehdr *eh = (const void *)m;
    if (n < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff == 0 || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > n)
        return 0;
    const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);
    int needs = 0, calls = 0;
    for (int i = 0; i < eh->e_shnum; i++) {
        if ((sh[i].sh_type != SHT_DYNSYM && sh[i].sh_type != SHT_DYNAMIC) || sh[i].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > n || str->sh_offset + str->sh_size > n || str->sh_size == 0)
            return 0;
        const char *names = (const char *)m + str->sh_offset;
        if (names[str->sh_size - 1] != '\0')
            return 0;
        if (sh[i].sh_type == SHT_DYNAMIC) {
            const Elf64_Dyn *d = (const void *)(m + sh[i].sh_offset);
            for (size_t k = 0; k < sh[i].sh_size / sizeof *d; k++)
                if (d[k].d_tag == DT_NEEDED && d[k].d_un.d_val < str->sh_size &&
                    !strcmp(names + d[k].d_un.d_val, "libmpi.so.40"))
                    needs = 1;
        } else {
            const Elf64_Sym *s = (const void *)(m + sh[i].sh_offset);
            for (size_t k = 0; k < sh[i].sh_size / sizeof *s; k++) {
                const char *nm = s[k].st_name < str->sh_size ? names + s[k].st_name : "";
                if (s[k].st_shndx == SHN_UNDEF && (!strncmp(nm, "MPI_", 4) || !strncmp(nm, "PMPI_", 5)))
                    calls = 1;
            }
        }
    }
    return needs && calls;
}

/* Loads the plugin at path now with RTLD_DEEPBIND if it calls MPI: its references then bind to
 * the libmpi.so.40 it needs, and Open MPI's own dlopen of it later finds it loaded. */
static void bind_plugin(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            if (calls_mpi(m, (size_t)st.st_size))
                dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND); /* failure: Open MPI's own load reports it */
            munmap(m, (size_t)st.st_size);
        }
    }
    close(fd);
}

void afb_bind_components(void *lib)
{
    Dl_info di;
    void *sym = dlsym(lib, "ompi_mpi_comm_world");
    char real[PATH_MAX];
    if (!sym || !dladdr(sym, &di) || !di.dli_fname || !realpath(di.dli_fname, real))
        return;
    char *slash = strrchr(real, '/');
    if (!slash)
        return;
    *slash = '\0';
    /* pkglibdir beside the library: Debian's (lib/openmpi/lib/openmpi3 beside lib/libmpi.so.40,
     * or beside its openmpi/lib/ copy), upstream's */
    static const char *const subdirs[] = {"openmpi/lib/openmpi3", "openmpi3", "openmpi"};
    for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
        char dir[PATH_MAX + 16], path[2 * PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", real, subdirs[i]);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            size_t len = strlen(e->d_name);
            if (!strncmp(e->d_name, "mca_", 4) && len > 3 && !strcmp(e->d_name + len - 3, ".so")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                bind_plugin(path);
            }
        }
        closedir(d);
        return;
    }
}
