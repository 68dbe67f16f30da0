#ifndef KINEMA_CBASELINE_H
#define KINEMA_CBASELINE_H

/* Plain C baselines for the benchmarks: the same damped spring x'' = -k(x - 1) - c x' (unit mass),
   stepped by a hand-written classic RK4 and by GSL's rk4 driver with a C right-hand side. */

typedef struct { double x, v; } cbaseline_state;

/* n RK4 steps of size h; returns the final state. */
cbaseline_state cbaseline_rk4(cbaseline_state s, double k, double c, double h, long n);

/* n fixed steps of GSL's rk4 (step doubling: 12 evaluations a step) of size h. */
cbaseline_state cbaseline_gsl_rk4(cbaseline_state s, double k, double c, double h, long n);

#endif
