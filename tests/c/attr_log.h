/* attr_log.h — the attribute tests' record of their callbacks' calls, in order: the kind ('c'
 * copy, 'd' delete), the object called on (a handle as an integer, 0 where unused) and the value. */
#ifndef ATTR_LOG_H
#define ATTR_LOG_H

#include <stdint.h>

#include "check.h"

#define MAXLOG 64
static char ev_kind[MAXLOG];
static intptr_t ev_obj[MAXLOG];
static intptr_t ev_val[MAXLOG];
static int nev;

static void log_ev(char k, intptr_t obj, void *v)
{
    CHECK(nev < MAXLOG, "too many callback calls");
    ev_kind[nev] = k;
    ev_obj[nev] = obj;
    ev_val[nev++] = (intptr_t)v;
}

/* The calls since the last check are exactly kinds, with values vals; then forgets them. */
static void expect_log(const char *kinds, const intptr_t *vals)
{
    int n = (int)strlen(kinds);
    CHECK(nev == n, "%d callback calls, expected %d (%s)", nev, n, kinds);
    for (int i = 0; i < n; i++) {
        CHECK(ev_kind[i] == kinds[i], "call %d is '%c', expected '%c'", i, ev_kind[i], kinds[i]);
        CHECK(ev_val[i] == vals[i], "call %d had value %ld, expected %ld", i, (long)ev_val[i], (long)vals[i]);
    }
    nev = 0;
}

#endif
