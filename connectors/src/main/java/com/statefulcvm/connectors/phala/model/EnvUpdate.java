package com.statefulcvm.connectors.phala.model;

import java.util.List;

/** Full replacement of a CVM's encrypted environment. */
public record EnvUpdate(String encryptedEnv, List<String> envKeys) {
}
