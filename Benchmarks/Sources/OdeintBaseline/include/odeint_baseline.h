#ifndef KINEMA_ODEINT_BASELINE_H
#define KINEMA_ODEINT_BASELINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Boost.Odeint on the benchmarks' 3-D spring chain, with a std::vector<double> state (positions,
   then velocities) and a general force loop, as a user of odeint would write it: body i of mass
   0.2 starts at (0.3(i+1), 0, 0.05i); springs k = 80, c = 0.3, rest length 0.25 join body 0 to
   the origin and each body to the next; gravity (0, 0, -9.81). Each function writes the final
   positions (3 per body) to `positions` and returns the seconds the integration took. */

/* `steps` steps of runge_kutta4 of size h. */
double odeint_chain_rk4(int bodies, double h, long steps, double *positions);

/* integrate_adaptive with a controlled runge_kutta_fehlberg78 (absolute = relative tolerance)
   from 0 to `duration`; the accepted steps are written to `accepted`. */
double odeint_chain_fehlberg78(int bodies, double tolerance, double duration, long *accepted, double *positions);

/* The same with runge_kutta_dopri5. */
double odeint_chain_dopri5(int bodies, double tolerance, double duration, long *accepted, double *positions);

/* The work-precision spring of `kinema work-precision --spring --stiffness k --damping c`: x'' =
   -k (x - 1) - c x' from rest at 0, on a std::array<double, 2> state, sampled by integrate_times at
   i / rate (the last sample at `duration`; `count` samples into `positions`). `method`: 0
   runge_kutta4 with `setting` steps per sample interval, 1 dense-output runge_kutta_dopri5, 2
   controlled runge_kutta_fehlberg78, 3 controlled runge_kutta_cash_karp54, 4 bulirsch_stoer,
   5 bulirsch_stoer_dense_out (tolerance `setting`, absolute = relative), 6 adams_bashforth_moulton
   of order 8 with `setting` steps per sample interval. Returns the best of `repeats` runs in
   seconds (-1 for an unknown method) and the steps of the last in `steps`. */
double odeint_spring_samples(int method, double setting, double k, double c, double duration, double rate,
                             long count, int repeats, double *positions, long *steps);

#ifdef __cplusplus
}
#endif

#endif
