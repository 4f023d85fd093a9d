package com.statefulcvm.delegates;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.delegates.support.MemoryEffectIntents;
import com.statefulcvm.delegates.support.PhalaEffects;
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
    private final MemoryEffectIntents intents = new MemoryEffectIntents();
    private final ComposeUpdater updater = new ComposeUpdater(new PhalaEffects(phala, intents, java.time.Clock.systemUTC(),
            new EffectSettings(null)));
    private final EffectScope scope = new EffectScope("webdemo", "webdemo-1", "rollout", "pid-1", "pid-1/webdemo-1#1");

    static CvmInfo cvm(String status, boolean inProgress, String compose) {
        return new CvmInfo("cvm_abc", "webdemo-1", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress,
                inProgress ? new Progress("running", null, "corr") : null, "hash", null, null, null, null, null, null, null,
                null, null, null, null, new ComposeFile("webdemo", compose, null, null, null, null, null, null, null, null, null));
    }

    @Test
    void aSettledCvmOnTheOldComposeIsUpdated() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "corr-1", false));
        String outcome = updater.ensureUpdateRequested(scope, cvm("running", false, OLD), NEW);
        verify(phala).updateDockerCompose("cvm_abc", NEW);
        assertThat(outcome).contains("accepted").contains("corr-1");
    }

    @Test
    void anUpdateAcceptedBeforeIsNotSentAgainEvenWhenTheCvmSettledWithoutIt() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "corr-1", false));
        updater.ensureUpdateRequested(scope, cvm("running", false, OLD), NEW);
        // the job died before its commit; Phala shows the CVM back on the old compose
        String outcome = updater.ensureUpdateRequested(scope, cvm("running", false, OLD), NEW);
        verify(phala, times(1)).updateDockerCompose(any(), any());
        assertThat(outcome).contains("accepted before");
    }

    @Test
    void aCvmThatAlreadyHasTheTargetIsNotUpdatedAgain() {
        String outcome = updater.ensureUpdateRequested(scope, cvm("running", false, NEW + "\n"), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("already has the target compose");
    }

    @Test
    void aBusyCvmIsLeftAloneUntilItSettles() {
        String outcome = updater.ensureUpdateRequested(scope, cvm("updating", true, NEW), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("busy");
    }

    @Test
    void runningTheStepTwiceAgainstTheObservedStateUpdatesOnce() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "corr-1", false));
        updater.ensureUpdateRequested(scope, cvm("running", false, OLD), NEW);
        // The retried job reads the CVM again: Phala shows the new compose and the update in progress.
        updater.ensureUpdateRequested(scope, cvm("updating", true, NEW), NEW);
        updater.ensureUpdateRequested(scope, cvm("running", false, NEW), NEW);
        verify(phala, times(1)).updateDockerCompose(any(), any());
    }
}
