package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CurrentUser;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.WorkspaceQuotas.Metric;
import com.statefulcvm.fleet.QuotaCheck;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether the CVMs a surge or a scale-up adds fit in the workspace's quotas ({@code GET /auth/me} for the workspace's
 * slug, then {@code GET /workspaces/{slug}/quotas}), each new CVM taken to be as large as the largest the set has.
 * A quota that cannot be read refuses nothing (it is logged): the service refuses a create beyond it anyway.
 */
@Component
public class WorkspaceQuotas {

    private static final Logger log = LoggerFactory.getLogger(WorkspaceQuotas.class);

    private final PhalaCloudClient phala;
    private final ReplicaSets replicaSets;

    public WorkspaceQuotas(PhalaCloudClient phala, ReplicaSets replicaSets) {
        this.phala = phala;
        this.replicaSets = replicaSets;
    }

    /** @return why {@code newCvms} more CVMs of the set do not fit, with the numbers; empty when they do or none is added */
    public Optional<String> refusal(String what, ReplicaSetSpec spec, int newCvms) {
        if (newCvms <= 0) {
            return Optional.empty();
        }
        try {
            CurrentUser me = phala.getCurrentUser();
            String slug = me.workspace() == null ? null : me.workspace().slug();
            if (slug == null || slug.isBlank()) {
                log.warn("The workspace has no slug; the quota of {} cannot be checked", what);
                return Optional.empty();
            }
            var quotas = phala.getWorkspaceQuotas(slug).quotas();
            if (quotas == null) {
                return Optional.empty();
            }
            QuotaCheck.Need need = need(spec, newCvms);
            return QuotaCheck.refusal(what, need, new QuotaCheck.Remaining(slug, metric(quotas.vmSlots()),
                    metric(quotas.vcpu()), metric(quotas.memoryMb()), metric(quotas.diskGb())));
        } catch (PhalaApiException e) {
            if (e.isOutcomeUnknown() || e.isRetryable()) {
                throw e;
            }
            log.warn("The workspace's quotas could not be read ({}); {} is not checked against them", e.getMessage(), what);
            return Optional.empty();
        }
    }

    /** Each new CVM as large as the set's largest (the same instance types, as a rule); 0 where none is known. */
    private QuotaCheck.Need need(ReplicaSetSpec spec, int newCvms) {
        List<CvmInfo> cvms = phala.listAppCvms(replicaSets.appId(spec));
        double vcpu = max(cvms, c -> c.resource() == null || c.resource().vcpu() == null ? 0 : c.resource().vcpu());
        double memoryMb = max(cvms, c -> c.resource() == null || c.resource().memoryInGb() == null ? 0 : c.resource().memoryInGb() * 1024);
        double disk = max(cvms, c -> c.resource() == null || c.resource().diskInGb() == null ? 0 : c.resource().diskInGb());
        return new QuotaCheck.Need(newCvms, vcpu, memoryMb, disk);
    }

    private static double max(List<CvmInfo> cvms, java.util.function.ToDoubleFunction<CvmInfo> size) {
        return cvms.stream().mapToDouble(size).max().orElse(0);
    }

    private static QuotaCheck.Metric metric(Metric metric) {
        return metric == null ? null : new QuotaCheck.Metric(metric.limit(), metric.remaining());
    }
}
