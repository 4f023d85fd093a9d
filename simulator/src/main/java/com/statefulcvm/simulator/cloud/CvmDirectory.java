package com.statefulcvm.simulator.cloud;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The apps and CVMs of the workspace, found by whichever id a client holds. Mutable; used only under
 * {@link SimulatedCloud}'s lock.
 */
final class CvmDirectory {

    /** {@code app_<40 hex>} / {@code instance_<40 hex>} / bare 40 hex: an app's current CVM or an instance. */
    private static final Pattern HEX_REF = Pattern.compile("^(?:app_|instance_)?([0-9a-fA-F]{40})$");

    /** By vm_uuid, in creation order. */
    private final Map<String, SimulatedCvm> cvms = new LinkedHashMap<>();
    /** By app_id (40 hex, no prefix). */
    private final Map<String, SimulatedApp> apps = new LinkedHashMap<>();
    /** The last integer CVM id given out. */
    private long lastCvmSeq;

    Collection<SimulatedCvm> cvms() {
        return cvms.values();
    }

    Collection<SimulatedApp> apps() {
        return apps.values();
    }

    SimulatedCvm cvm(String vmUuid) {
        return cvms.get(vmUuid);
    }

    /** By the bare app_id, as the directory keys it. */
    SimulatedApp app(String appId) {
        return apps.get(appId);
    }

    void add(SimulatedApp app) {
        apps.put(app.appId, app);
    }

    /** Files a new CVM under its app, after the app's other CVMs. */
    void add(SimulatedApp app, SimulatedCvm cvm) {
        cvms.put(cvm.vmUuid, cvm);
        app.cvmVmUuids.add(cvm.vmUuid);
    }

    void remove(SimulatedCvm cvm) {
        cvms.remove(cvm.vmUuid);
        SimulatedApp app = apps.get(cvm.appId);
        if (app != null) {
            app.cvmVmUuids.remove(cvm.vmUuid);
        }
    }

    /** The next integer CVM id: a sequence, never reused, so old-API clients never see an id twice. */
    long nextSeq() {
        return ++lastCvmSeq;
    }

    long lastCvmSeq() {
        return lastCvmSeq;
    }

    boolean nameTaken(String name) {
        return cvms.values().stream().anyMatch(cvm -> cvm.name.equalsIgnoreCase(name));
    }

    void clear() {
        cvms.clear();
        apps.clear();
        lastCvmSeq = 0;
    }

    /** Takes back what the state file held; integer ids continue after the highest one ever given out. */
    void restore(List<SimulatedApp> savedApps, List<SimulatedCvm> savedCvms, long savedLastCvmSeq) {
        savedApps.forEach(app -> apps.put(app.appId, app));
        savedCvms.forEach(cvm -> cvms.put(cvm.vmUuid, cvm));
        lastCvmSeq = Math.max(savedLastCvmSeq, cvms.values().stream().mapToLong(cvm -> cvm.seq).max().orElse(0));
        for (SimulatedCvm cvm : cvms.values()) {
            if (cvm.seq <= 0) {
                cvm.seq = ++lastCvmSeq; // a file from before integer ids
            }
        }
    }

    SimulatedCvm requireCvm(String ref) {
        return findCvm(ref).orElseThrow(() -> ApiException.notFound("CVM"));
    }

    /** {@code ref}: the CVM's hashed or integer id, vm_uuid, name, instance_id or {@code app_<app_id>}. */
    Optional<SimulatedCvm> findCvm(String ref) {
        if (ref == null || ref.isBlank()) {
            return Optional.empty();
        }
        String trimmed = ref.trim();
        // vm_uuid is how most calls name a CVM (the status batch names every CVM of a fleet that way): a scan of every
        // CVM for each of them made a batch quadratic in the fleet, 30 % of the capacity benchmark's CPU at 5,000 CVMs
        SimulatedCvm byVmUuid = cvms.get(trimmed);
        if (byVmUuid != null) {
            return Optional.of(byVmUuid);
        }
        Optional<SimulatedCvm> direct = cvms.values().stream().filter(cvm -> cvm.matches(trimmed)).findFirst();
        if (direct.isPresent()) {
            return direct;
        }
        Matcher hex = HEX_REF.matcher(trimmed);
        if (!hex.matches()) {
            return Optional.empty();
        }
        // the official SDK turns a 40-hex app_id or instance_id into app_<hex>: an instance, else the app's CVM
        String id = hex.group(1).toLowerCase();
        Optional<SimulatedCvm> instance = cvms.values().stream().filter(cvm -> id.equals(cvm.instanceId)).findFirst();
        if (instance.isPresent()) {
            return instance;
        }
        SimulatedApp app = apps.get(id);
        return app == null ? Optional.empty() : cvmsOf(app).stream().findFirst();
    }

    SimulatedApp requireApp(String appId) {
        SimulatedApp app = appId == null ? null : apps.get(appKey(appId));
        if (app == null) {
            throw ApiException.notFound("App");
        }
        return app;
    }

    /** Clients send the app_id with or without {@code app_} and in either case. */
    static String appKey(String appId) {
        String key = appId.trim().toLowerCase();
        return key.startsWith("app_") ? key.substring(4) : key;
    }

    /** The app's CVMs still in the workspace, oldest first. */
    List<SimulatedCvm> cvmsOf(SimulatedApp app) {
        return app.cvmVmUuids.stream().map(cvms::get).filter(Objects::nonNull).toList();
    }
}
