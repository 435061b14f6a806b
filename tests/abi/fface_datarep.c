/* fface_datarep: the standard-ABI Fortran face's closures for a Fortran data representation's
 * conversion and extent functions (fcallbacks.c, compiled in), called as the library would. */
#include <stdint.h>

#include "check.h"
#include "fface.h"

/* The Fortran face's marker (fsupport.c, not linked here): MPI_CONVERSION_FN_NULL. */
void mpi_conversion_fn_null_(void) {}

/* What the Fortran stand-ins saw, all by reference as a Fortran procedure gets it. */
static struct {
    int calls;
    void *userbuf, *filebuf;
    MPI_Fint type, count;
    MPI_Offset position;
    MPI_Aint extra;
} seen;

/* DATAREP_CONVERSION_FUNCTION(USERBUF, DATATYPE, COUNT, FILEBUF, POSITION, EXTRA_STATE, IERROR) */
static void f_conversion(void *userbuf, MPI_Fint *type, MPI_Fint *count, void *filebuf, MPI_Offset *position,
                         MPI_Aint *extra, MPI_Fint *ierr)
{
    seen.calls++;
    seen.userbuf = userbuf, seen.filebuf = filebuf;
    seen.type = *type, seen.count = *count, seen.position = *position, seen.extra = *extra;
    *ierr = seen.calls == 1 ? MPI_SUCCESS : MPI_ERR_CONVERSION;
}

/* DATAREP_EXTENT_FUNCTION(DATATYPE, EXTENT, EXTRA_STATE, IERROR) */
static void f_extent(MPI_Fint *type, MPI_Aint *extent, MPI_Aint *extra, MPI_Fint *ierr)
{
    seen.calls++;
    seen.type = *type, seen.extra = *extra;
    *extent = 24;
    *ierr = MPI_ERR_TYPE;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char ubuf[16], fbuf[16];
    ff_proc code = NULL, again = NULL;

    /* a conversion function: every argument reaches the procedure, its IERROR is the result */
    CHECK(ff_callback("MPI_Datarep_conversion_function", (ff_proc)f_conversion, &code) == 0 && code,
          "no C function for a Fortran conversion function\n");
    MPI_Datarep_conversion_function *conv = (MPI_Datarep_conversion_function *)code;
    const MPI_Offset pos = ((MPI_Offset)5 << 32) + 7; /* above 32 bits: an int64 argument */
    int rc = conv(ubuf, MPI_DOUBLE, 3, fbuf, pos, (void *)(intptr_t)0x12345678);
    CHECK(rc == MPI_SUCCESS && seen.calls == 1, "rc %d, %d calls\n", rc, seen.calls);
    CHECK(seen.userbuf == ubuf && seen.filebuf == fbuf, "buffers %p %p, want %p %p\n", seen.userbuf,
          seen.filebuf, (void *)ubuf, (void *)fbuf);
    CHECK(seen.type == PMPI_Type_c2f(MPI_DOUBLE), "DATATYPE %d, want %d\n", (int)seen.type,
          (int)PMPI_Type_c2f(MPI_DOUBLE));
    CHECK(seen.count == 3, "COUNT %d\n", (int)seen.count);
    CHECK(seen.position == pos, "POSITION %lld, want %lld\n", (long long)seen.position, (long long)pos);
    CHECK(seen.extra == 0x12345678, "EXTRA_STATE %#lx\n", (long)seen.extra);
    rc = conv(fbuf, MPI_INT, -1, ubuf, -2, NULL);
    CHECK(rc == MPI_ERR_CONVERSION && seen.calls == 2, "rc %d (want the IERROR set), %d calls\n", rc, seen.calls);
    CHECK(seen.userbuf == fbuf && seen.filebuf == ubuf && seen.type == PMPI_Type_c2f(MPI_INT) && seen.count == -1 &&
              seen.position == -2 && seen.extra == 0,
          "second call: count %d position %lld extra %ld\n", (int)seen.count, (long long)seen.position,
          (long)seen.extra);
    CHECK(ff_callback("MPI_Datarep_conversion_function", (ff_proc)f_conversion, &again) == 0 && again == code,
          "the same procedure gives another closure\n");

    /* an extent function: EXTENT written through, IERROR returned */
    CHECK(ff_callback("MPI_Datarep_extent_function", (ff_proc)f_extent, &code) == 0 && code,
          "no C function for a Fortran extent function\n");
    MPI_Aint extent = -1;
    rc = ((MPI_Datarep_extent_function *)code)(MPI_SHORT, &extent, (void *)(intptr_t)-3);
    CHECK(rc == MPI_ERR_TYPE && seen.calls == 3, "rc %d, %d calls\n", rc, seen.calls);
    CHECK(extent == 24 && seen.type == PMPI_Type_c2f(MPI_SHORT) && seen.extra == -3,
          "EXTENT %ld DATATYPE %d EXTRA_STATE %ld\n", (long)extent, (int)seen.type, (long)seen.extra);

    /* MPI_CONVERSION_FN_NULL is the C null procedure, not a closure */
    code = (ff_proc)f_extent;
    CHECK(ff_callback("MPI_Datarep_conversion_function", (ff_proc)mpi_conversion_fn_null_, &code) == 0 &&
              code == (ff_proc)MPI_CONVERSION_FN_NULL,
          "MPI_CONVERSION_FN_NULL gives %p\n", (void *)(intptr_t)code);

    /* what cannot be converted is refused */
    code = (ff_proc)f_extent;
    CHECK(ff_callback("MPI_No_such_function", (ff_proc)f_extent, &code) == -1 && code == NULL,
          "an unknown callback type is accepted\n");
    code = (ff_proc)f_extent;
    CHECK(ff_callback("MPI_Datarep_extent_function", NULL, &code) == -1 && code == NULL,
          "a null procedure is accepted\n");
    CHECK(seen.calls == 3, "%d calls\n", seen.calls);

    MPI_Finalize();
    puts("fface_datarep: OK");
    return 0;
}
