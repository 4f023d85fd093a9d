package com.statefulcvm.simulator.web;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import com.statefulcvm.simulator.cloud.CvmSnapshot;

/**
 * The filters of {@code GET /apps} and {@code GET /cvms/paginated}, as one predicate on a CVM (an app is listed
 * when one of its CVMs passes). Every filter left out passes everything; {@code listed=true} passes nothing, since
 * no simulated CVM is listed publicly.
 */
final class CvmFilter {

    private CvmFilter() {
    }

    static Predicate<CvmSnapshot> of(String search, List<String> statuses, Boolean listed, String baseImage,
            String instanceType, String kmsSlug, String kmsType, String node, Integer nodeId, String region) {
        Predicate<CvmSnapshot> filter = cvm -> true;
        if (search != null && !search.isBlank()) {
            String needle = search.trim().toLowerCase(Locale.ROOT);
            filter = filter.and(cvm -> contains(cvm.name(), needle) || contains(cvm.appId(), needle)
                    || contains(cvm.vmUuid(), needle) || contains(cvm.instanceId(), needle)
                    || contains("app_" + cvm.appId(), needle));
        }
        if (statuses != null && !statuses.isEmpty()) {
            filter = filter.and(cvm -> statuses.contains(cvm.status()));
        }
        if (listed != null) {
            filter = filter.and(cvm -> !listed);
        }
        if (baseImage != null) {
            filter = filter.and(cvm -> baseImage.equals(CvmSnapshot.OS_NAME));
        }
        if (instanceType != null) {
            filter = filter.and(cvm -> instanceType.equals(cvm.instanceType()));
        }
        if (kmsSlug != null) {
            filter = filter.and(cvm -> kmsSlug.equals(CvmSnapshot.KMS_SLUG));
        }
        if (kmsType != null) {
            filter = filter.and(cvm -> kmsType.equalsIgnoreCase(CvmSnapshot.KMS_TYPE));
        }
        if (node != null) {
            filter = filter.and(cvm -> node.equals(cvm.nodeName()));
        }
        if (nodeId != null) {
            filter = filter.and(cvm -> nodeId == cvm.nodeId());
        }
        if (region != null) {
            filter = filter.and(cvm -> region.equalsIgnoreCase(cvm.region()));
        }
        return filter;
    }

    private static boolean contains(String value, String needle) {
        return value != null && value.toLowerCase(Locale.ROOT).contains(needle);
    }
}
