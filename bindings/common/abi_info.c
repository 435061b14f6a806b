/* abi_info.c — MPI_Abi_get_info and the Fortran ABI settings, shared by both C faces.
 * Keys follow the MPI-5.0 ABI chapter (mpi_aint_size, mpi_logical_size, ...). */
#include <stdio.h>
#include <string.h>

#include "abi_info.h"

static const char *const fortran_keys[] = {"mpi_logical_size", "mpi_integer_size", "mpi_real_size",
                                           "mpi_double_precision_size"};
static int fortran_sizes[] = {4, 4, 4, 8};
/* .TRUE./.FALSE. per LOGICAL size 1, 2, 4, 8 (index log2); gfortran uses 1 and 0. */
static int64_t booleans[4][2] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}};
static int booleans_set[4];

static int set_int(rt_info *info, const char *key, int v)
{
    char s[16];
    snprintf(s, sizeof s, "%d", v);
    return rt_Info_set(info, key, s);
}

int fs_abi_info(rt_info **info, const char *fn, int aint_size, int count_size, int offset_size)
{
    (void)fn;
    int err = rt_Info_create(info);
    if (!err)
        err = set_int(*info, "mpi_aint_size", aint_size);
    if (!err)
        err = set_int(*info, "mpi_count_size", count_size);
    if (!err)
        err = set_int(*info, "mpi_offset_size", offset_size);
    return err;
}

int fs_abi_fortran_info(rt_info **info, const char *fn)
{
    (void)fn;
    int err = rt_Info_create(info);
    for (size_t i = 0; !err && i < sizeof fortran_keys / sizeof *fortran_keys; i++)
        err = set_int(*info, fortran_keys[i], fortran_sizes[i]);
    return err;
}

int fs_abi_set_fortran_info(rt_info *info, const char *fn)
{
    for (size_t i = 0; i < sizeof fortran_keys / sizeof *fortran_keys; i++) {
        char v[32];
        int len = (int)sizeof v, flag = 0, n;
        int err = rt_Info_get_string(info, fortran_keys[i], &len, v, &flag);
        if (err)
            return err;
        if (!flag)
            continue;
        if (sscanf(v, "%d", &n) != 1 || n <= 0 || n > 16)
            return rt_raise(NULL, RT_ERR_INFO_VALUE, fn, "invalid value '%s' for info key '%s'", v, fortran_keys[i]);
        fortran_sizes[i] = n;
    }
    return 0;
}

static int slot(int size)
{
    switch (size) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return -1;
    }
}

int fs_abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set)
{
    int s = slot(logical_size);
    if (s < 0 || !logical_true || !logical_false || !is_set)
        return rt_raise(NULL, RT_ERR_ARG, "MPI_Abi_get_fortran_booleans",
                        "invalid arguments: logical_size = %d (must be 1, 2, 4 or 8), or a null pointer", logical_size);
    memcpy(logical_true, &booleans[s][0], (size_t)logical_size); /* little-endian: the low bytes */
    memcpy(logical_false, &booleans[s][1], (size_t)logical_size);
    *is_set = booleans_set[s];
    return 0;
}

int fs_abi_set_fortran_booleans(int logical_size, const void *logical_true, const void *logical_false)
{
    int s = slot(logical_size);
    if (s < 0 || !logical_true || !logical_false)
        return rt_raise(NULL, RT_ERR_ARG, "MPI_Abi_set_fortran_booleans",
                        "invalid arguments: logical_size = %d (must be 1, 2, 4 or 8), or a null pointer", logical_size);
    booleans[s][0] = booleans[s][1] = 0;
    memcpy(&booleans[s][0], logical_true, (size_t)logical_size);
    memcpy(&booleans[s][1], logical_false, (size_t)logical_size);
    booleans_set[s] = 1;
    return 0;
}
