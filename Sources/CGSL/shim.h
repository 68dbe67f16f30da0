#ifndef KINEMA_CGSL_SHIM_H
#define KINEMA_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

/* Swift 6 refuses GSL's exported step-type globals (`gsl_odeiv2_step_rk4`, ...) as shared mutable
   state. These accessors hand out the same constant pointers through functions instead. */
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk2(void) { return gsl_odeiv2_step_rk2; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk4(void) { return gsl_odeiv2_step_rk4; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rkf45(void) { return gsl_odeiv2_step_rkf45; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rkck(void) { return gsl_odeiv2_step_rkck; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk8pd(void) { return gsl_odeiv2_step_rk8pd; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk1imp(void) { return gsl_odeiv2_step_rk1imp; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk2imp(void) { return gsl_odeiv2_step_rk2imp; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_rk4imp(void) { return gsl_odeiv2_step_rk4imp; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_bsimp(void) { return gsl_odeiv2_step_bsimp; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_msadams(void) { return gsl_odeiv2_step_msadams; }
static inline const gsl_odeiv2_step_type *kinema_gsl_step_msbdf(void) { return gsl_odeiv2_step_msbdf; }

/* GSL's default error handler aborts the process; Kinema maps status codes to Swift errors instead. */
static inline void kinema_gsl_disable_abort(void) { gsl_set_error_handler_off(); }

#endif
