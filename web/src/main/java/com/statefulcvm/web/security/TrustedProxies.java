package com.statefulcvm.web.security;

import org.apache.catalina.valves.RemoteIpValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Behind the TLS-terminating proxies named in {@code orchestrator.security.trusted-proxies} (and only behind them),
 * the client's address and scheme come from the proxy's X-Forwarded-For and X-Forwarded-Proto: what the login
 * throttle counts per client and the Origin check compares. Anyone else's forwarded headers are ignored.
 */
@Component
class TrustedProxies implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private final SecurityProperties security;

    TrustedProxies(SecurityProperties security) {
        this.security = security;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        if (!security.hasTrustedProxies()) {
            return;
        }
        RemoteIpValve valve = new RemoteIpValve();
        valve.setInternalProxies(security.getTrustedProxies());
        valve.setRemoteIpHeader("X-Forwarded-For");
        valve.setProtocolHeader("X-Forwarded-Proto");
        factory.addEngineValves(valve);
    }
}
