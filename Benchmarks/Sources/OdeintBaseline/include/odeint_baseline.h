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

#ifdef __cplusplus
}
#endif

#endif
