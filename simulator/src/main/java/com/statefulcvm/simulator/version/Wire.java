package com.statefulcvm.simulator.version;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.NetworkInfo;
import com.statefulcvm.simulator.cloud.CvmSnapshot;

/** Small conversions every version's views share. */
final class Wire {

    private Wire() {
    }

    static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /** The app compose with its keys in order. */
    static Map<String, Object> compose(CvmSnapshot cvm) {
        return Collections.unmodifiableMap(new TreeMap<>(cvm.composeFile()));
    }

    /** Every published port's URLs; {@code instance} null before the first boot. */
    static List<CvmInfo.Url> urls(CvmSnapshot cvm) {
        return cvm.urls().stream().map(url -> new CvmInfo.Url(url.app(), url.instance())).toList();
    }

    /** The network read; versions differ only in which URL list they may show. */
    static NetworkInfo network(CvmSnapshot cvm, List<CvmInfo.Url> urls) {
        boolean online = cvm.running();
        return new NetworkInfo(online, true, online ? null : "CVM is not running", cvm.internalIp(),
                online ? text(cvm.observedAt()) : null, urls);
    }

    /** Only the URLs with both parts: older versions never answer an instance URL of null. */
    static List<CvmInfo.Url> completeUrls(CvmSnapshot cvm) {
        return cvm.urls().stream()
                .filter(url -> url.instance() != null)
                .map(url -> new CvmInfo.Url(url.app(), url.instance()))
                .toList();
    }
}
