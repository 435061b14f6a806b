/* err.h — the error part's contract: raising an error (RT_ERR), error classes, codes and their
 * strings, error handler objects and running them, ending the job on a fatal error. */
#ifndef RT_ERR_H
#define RT_ERR_H

#include "obj/obj.h"

/* Raise from inside an entry point: the MPI name comes from __func__ (rt_Foo -> MPI_Foo). */
#define RT_ERR(obj, cls, ...) rt_raise((rt_obj *)(obj), (cls), __func__, __VA_ARGS__)

/* What an error handler does. */
enum rt__eh_kind { RT__EH_FATAL = 0, RT__EH_ABORT, RT__EH_RETURN, RT__EH_USER };

struct rt_errhandler {
    rt_obj obj;
    int kind;        /* enum rt__eh_kind */
    int for_cls;     /* rt_class of the objects it may be set on; RT_CLASS_NONE = any (builtins) */
    rt_callback cb;  /* RT__EH_USER only */
};

/* A session (init/session.c owns it): its error handler and the thread level it was given.
 * Files are the I/O part's (io/io.h). */
struct rt__bsend_buf;
struct rt_session {
    rt_obj obj;
    rt_errhandler *errh;
    int thread_level;
    struct rt__bsend_buf *bbuf; /* MPI_Session_attach_buffer's (p2p/p2p_bsend.c), or NULL */
};

/* ------------------------------------------------------------ state (errors.c, errcodes.c) */

#define RT__ERR_RING 256  /* messages of the last 256 raised errors are kept */

struct rt__errmsg {
    int code;                         /* instance code, 0 if the entry is unused */
    char msg[RT_MAX_ERROR_STRING];
};

/* A user error class or code (MPI_Add_error_class/code); its code is DYNAMIC_BASE + index. */
struct rt__usererr {
    int cls;         /* its class (itself for a class) */
    uint8_t is_class;
    uint8_t live;    /* 0 once removed */
    char *str;       /* MPI_Add_error_string text (owned) or NULL */
};

/* The error part's state. */
struct rt__err_state {
    uint32_t seq;                            /* instances raised so far */
    struct rt__errmsg ring[RT__ERR_RING];
    struct rt__usererr *user;                /* user classes and codes */
    int nuser, capuser;
    int lastused;                            /* MPI_LASTUSEDCODE value */
    int aborting;                            /* set once the process is going down */
    int self_errh_set;                       /* the program set MPI_COMM_SELF's handler */
};

extern struct rt__err_state rt__err;

/* ------------------------------------------------------------ errors (errors.c) */

/* Writes the MPI name of fn ("rt_Comm_rank" -> "MPI_Comm_rank"; other names as they are)
 * into buf (size n), with "_c" when it is this thread's rt__large_call; returns buf. */
const char *rt__mpi_name(const char *fn, char *buf, size_t n);
/* A rank value as a message shows it: the constant's name for the runtime's special values
 * (MPI_PROC_NULL, ...: each face maps its own to them, so the number would be the runtime's, not
 * the user's), else the number; in buf (at least 16 bytes). */
const char *rt__rank_text(int r, char *buf, size_t n);
/* Ends the whole job with exit status `status` (singleton: the process). Never returns. */
_Noreturn void rt__abort_job(int status);
/* Prints "Switchyard: fatal error: <msg>" to stderr and ends the job with status 1. */
_Noreturn void rt__fatal(const char *msg);
/* errors.c: rt__fatal for an error code; a peer failure is reported to the launcher as one. */
_Noreturn void rt__fatal_code(int code, const char *msg);
/* Raises RT_ERR_ARG "invalid argument '<arg>': NULL pointer" on obj for procedure fn. */
int rt__null_arg(rt_obj *obj, const char *fn, const char *arg);
/* The recorded message of instance code `code`, or NULL if it was recycled or never was. */
const char *rt__instance_msg(int code);

/* ------------------------------------------------------------ error codes (errcodes.c) */

/* The predefined text of a predefined class, or NULL if cls is not one. */
const char *rt__class_string(int cls);
/* The text MPI_Error_string gives for code into buf (size n); -1 if code is invalid. */
int rt__error_text(int code, char *buf, size_t n);
/* Called at unload: frees the user error table. */
void rt__errcodes_unload(void);

/* ------------------------------------------------------------ error handlers (errhandler.c) */

/* Sets up the builtin MPI_ERRORS_* objects (at load). */
void rt__errhandler_builtins_init(void);
/* Objects of class cls carry their error handler at byte `offset` (a communicator, window,
 * file or session; registered at load by init/load.c). */
void rt__errhandler_set_slot(int cls, size_t offset);
/* The error-handler slot of a live object whose class has one; NULL for anything else. */
rt_errhandler **rt__errhandler_slot(rt_obj *o);
/* Runs handler eh for error `code` on object target (msg: the text fatal handlers print).
 * Returns code unless the handler ends the process. */
int rt__errhandler_invoke(rt_errhandler *eh, rt_obj *target, int code, const char *msg);
/* Replaces the handler in *slot by eh (reference moved: retains eh, releases the old). */
void rt__errhandler_replace(rt_errhandler **slot, rt_errhandler *eh);
/* What handlers made for objects of class cls are for ("windows (MPI_Win_create_errhandler)"). */
const char *rt__errhandler_class_noun(int cls);
/* Makes fn run before each call of a user's error handler (the attribute part's reset of the
 * calling thread's attribute view, registered at load: init/load.c). */
void rt__errhandler_on_user_call(void (*fn)(void));
/* Set at load (init/load.c) to the engine's rt__raise_lock_p2p: a thread in a channel entry
 * (rt.h, rt_enter_channel) holds no library lock, so rt_raise calls (*rt__raise_lock)(1) first,
 * which takes it and returns 1 (0: held already), and (*rt__raise_lock)(0) at the end if it
 * took it: the error tables and the handler (which may call anything) run under it. */
extern int (*rt__raise_lock)(int take);


#endif
