package com.statefulcvm.delegates;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.delegates.support.ComposeUpdater;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** A step that runs twice (a job retried after a crash) must not update, and so restart, the CVM twice. */
class ComposeUpdaterTest {

    private static final String OLD = "services:\n  web:\n    image: a\n";
    private static final String NEW = "services:\n  web:\n    image: b\n";

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final ComposeUpdater updater = new ComposeUpdater(phala);

    static CvmInfo cvm(String status, boolean inProgress, String compose) {
        return new CvmInfo("cvm_abc", "webdemo-1", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress,
                inProgress ? new Progress("running", null, "corr") : null, "hash", null, null, null, null, null, null, null,
                null, null, null, null, new ComposeFile("webdemo", compose, null, null, null, null, null, null, null, null, null));
    }

    @Test
    void aSettledCvmOnTheOldComposeIsUpdated() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "corr-1", false));
        String outcome = updater.ensureUpdateRequested(cvm("running", false, OLD), NEW);
        verify(phala).updateDockerCompose("cvm_abc", NEW);
        assertThat(outcome).contains("accepted").contains("corr-1");
    }

    @Test
    void aCvmThatAlreadyHasTheTargetIsNotUpdatedAgain() {
        String outcome = updater.ensureUpdateRequested(cvm("running", false, NEW + "\n"), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("already has the target compose");
    }

    @Test
    void aBusyCvmIsLeftAloneUntilItSettles() {
        String outcome = updater.ensureUpdateRequested(cvm("updating", true, NEW), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("busy");
    }

    @Test
    void runningTheStepTwiceAgainstTheObservedStateUpdatesOnce() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "corr-1", false));
        updater.ensureUpdateRequested(cvm("running", false, OLD), NEW);
        // The retried job reads the CVM again: Phala shows the new compose and the update in progress.
        updater.ensureUpdateRequested(cvm("updating", true, NEW), NEW);
        updater.ensureUpdateRequested(cvm("running", false, NEW), NEW);
        verify(phala, times(1)).updateDockerCompose(any(), any());
    }
}
