package com.statefulcvm.simulator.version;

import java.util.List;

import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.cloud.AppSnapshot;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Page;
import com.statefulcvm.simulator.cloud.RevisionSnapshot;
import com.statefulcvm.simulator.cloud.SimulatedAccount;
import com.statefulcvm.simulator.cloud.UpdateOutcome;

/**
 * What one API version answers, built from the version-neutral snapshots of the simulated cloud. One
 * implementation per version; the controllers get the caller's through an argument of this type and never look at
 * the version themselves. Answers that are the same in every version ({@code POST /cvms/provision},
 * {@code POST /status/batch}, {@code GET /cvms/{id}/stats}) do not pass through here.
 */
public interface ApiViews {

    ApiVersion version();

    /** {@code POST /cvms}: the app's first CVM, just created. */
    Object created(CvmSnapshot cvm);

    /** {@code POST /apps/{app_id}/instances}: a new CVM of the app. */
    Object instanceCreated(CvmSnapshot cvm);

    /** {@code POST /cvms/{id}/start|stop|shutdown|restart}, {@code DELETE /cvms/{id}}: the CVM as it now is. */
    Object lifecycle(CvmSnapshot cvm);

    /** {@code GET /cvms/{id}}: the detail view. */
    Object cvm(CvmSnapshot cvm);

    /** {@code GET /cvms/paginated}. */
    Object cvmPage(Page<CvmSnapshot> page);

    /** {@code GET /cvms/{id}/state}. */
    Object state(CvmSnapshot cvm);

    /** {@code GET /cvms/{id}/network}. */
    Object network(CvmSnapshot cvm);

    /** {@code GET /cvms/{id}/attestation}. */
    Object attestation(AttestationInfo attestation);

    /** {@code GET /apps/{app_id}}. */
    Object app(AppSnapshot app);

    /** {@code GET /apps}. */
    Object appPage(Page<AppSnapshot> page);

    /** {@code GET /apps/{app_id}/cvms}. */
    Object appCvms(List<CvmSnapshot> cvms);

    /** {@code GET /apps/{app_id}/revisions}. */
    Object revisions(Page<RevisionSnapshot> page);

    /** {@code GET /apps/{app_id}/revisions/{revision_id}}; the compose as JSON text when {@code rawComposeFile}. */
    Object revision(RevisionSnapshot revision, boolean rawComposeFile);

    /** {@code PATCH /cvms/{id}/docker-compose} (202). */
    Object composeUpdate(UpdateOutcome outcome);

    /** {@code PATCH /cvms/{id}/envs} (202). */
    Object envUpdate(UpdateOutcome outcome);

    /** {@code POST /apps/{app_id}/revisions/{revision_id}/redeploy} (202). */
    Object redeploy(UpdateOutcome outcome);

    /** {@code GET /auth/me}. */
    Object currentUser(SimulatedAccount account);
}
