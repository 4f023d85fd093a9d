package com.statefulcvm.web.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code orchestrator.security.*}: how this deployment meets its callers (docs/configuration.md, Security). */
@ConfigurationProperties("orchestrator.security")
public class SecurityProperties {

    /**
     * The proxies that terminate TLS in front of this server, as a regular expression of their IP addresses (Tomcat's
     * internal-proxies syntax, e.g. {@code 10\.0\.0\.5}); empty: none. Only from them are X-Forwarded-For and
     * X-Forwarded-Proto believed: the client a login is throttled for, and whether the request came over HTTPS.
     */
    private String trustedProxies = "";
    /** Browser origins besides this server's own that may send changing requests to /api and /engine-rest. */
    private List<String> allowedOrigins = new ArrayList<>();
    /** The largest body /engine-rest and the webapps' API (/camunda/api) accept; larger is 413. */
    private DataSize maxEngineRequestSize = DataSize.ofMegabytes(2);
    private LoginThrottle loginThrottle = new LoginThrottle();

    public String getTrustedProxies() { return trustedProxies; }
    public void setTrustedProxies(String trustedProxies) { this.trustedProxies = trustedProxies; }
    public List<String> getAllowedOrigins() { return allowedOrigins; }
    public void setAllowedOrigins(List<String> allowedOrigins) { this.allowedOrigins = allowedOrigins; }
    public DataSize getMaxEngineRequestSize() { return maxEngineRequestSize; }
    public void setMaxEngineRequestSize(DataSize maxEngineRequestSize) { this.maxEngineRequestSize = maxEngineRequestSize; }
    public LoginThrottle getLoginThrottle() { return loginThrottle; }
    public void setLoginThrottle(LoginThrottle loginThrottle) { this.loginThrottle = loginThrottle; }

    public boolean hasTrustedProxies() {
        return trustedProxies != null && !trustedProxies.isBlank();
    }

    /**
     * Wrong passwords are counted per client (its address), never per account: nobody can lock another user out.
     * After {@code freeFailures} in a row a client waits {@code firstDelay}, doubled with each further failure up to
     * {@code maxDelay}; a correct login clears its count.
     */
    public static class LoginThrottle {
        private int freeFailures = 5;
        private Duration firstDelay = Duration.ofSeconds(1);
        private Duration maxDelay = Duration.ofMinutes(5);

        public int getFreeFailures() { return freeFailures; }
        public void setFreeFailures(int freeFailures) { this.freeFailures = freeFailures; }
        public Duration getFirstDelay() { return firstDelay; }
        public void setFirstDelay(Duration firstDelay) { this.firstDelay = firstDelay; }
        public Duration getMaxDelay() { return maxDelay; }
        public void setMaxDelay(Duration maxDelay) { this.maxDelay = maxDelay; }
    }
}
