package com.statefulcvm.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuotaCheckTest {

    private static final QuotaCheck.Remaining ROOMY = new QuotaCheck.Remaining("team", new QuotaCheck.Metric(10, 5),
            new QuotaCheck.Metric(40, 20), new QuotaCheck.Metric(81920, 40960), new QuotaCheck.Metric(1000, 500));

    @Test
    void whatFitsOrNeedsNothingIsNotRefused() {
        assertThat(QuotaCheck.refusal("surge", new QuotaCheck.Need(2, 2, 4096, 40), ROOMY)).isEmpty();
        assertThat(QuotaCheck.refusal("surge", new QuotaCheck.Need(0, 2, 4096, 40), ROOMY)).isEmpty();
    }

    @Test
    void theRefusalHasEveryNumberThatIsShort() {
        QuotaCheck.Remaining tight = new QuotaCheck.Remaining("team", new QuotaCheck.Metric(3, 1),
                new QuotaCheck.Metric(8, 3), new QuotaCheck.Metric(8192, 8192), new QuotaCheck.Metric(100, 100));

        assertThat(QuotaCheck.refusal("scale-up of db to 5", new QuotaCheck.Need(2, 2, 2048, 20), tight)).hasValue(
                "scale-up of db to 5 needs 2 new CVMs but workspace 'team' is short: 2 VM slots needed, 1 left of 3; "
                        + "4 vCPUs needed, 3 left of 8");
    }

    @Test
    void unknownSizesCheckOnlyTheCount() {
        QuotaCheck.Remaining noCpu = new QuotaCheck.Remaining("team", new QuotaCheck.Metric(10, 5),
                new QuotaCheck.Metric(8, 0), new QuotaCheck.Metric(0, 0), new QuotaCheck.Metric(0, 0));
        assertThat(QuotaCheck.refusal("surge", new QuotaCheck.Need(1, 0, 0, 0), noCpu)).isEmpty();
    }
}
