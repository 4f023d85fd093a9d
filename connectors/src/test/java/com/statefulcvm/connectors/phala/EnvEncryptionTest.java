package com.statefulcvm.connectors.phala;

import org.junit.jupiter.api.Test;

import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.XECPublicKey;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CVM's side of the exchange, done here with the recipient's private key: what it decrypts is exactly the env. */
class EnvEncryptionTest {

    @Test
    void theRecipientDecryptsTheEnvJsonAndNothingIsInClear() throws Exception {
        KeyPair app = KeyPairGenerator.getInstance("X25519").generateKeyPair();
        String appPublicKey = HexFormat.of().formatHex(EnvEncryption.rawPublicKey((XECPublicKey) app.getPublic()));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_PASSWORD", "s3cret-value");
        env.put("GREETING", "hello");

        EnvEncryption.Sealed sealed = EnvEncryption.seal(env, appPublicKey);

        assertThat(sealed.envKeys()).containsExactly("DB_PASSWORD", "GREETING");
        assertThat(sealed.encryptedEnv()).matches("^[0-9a-f]+$").doesNotContain(HexFormat.of().formatHex("s3cret".getBytes()));
        assertThat(sealed.toString()).doesNotContain("s3cret").doesNotContain(sealed.encryptedEnv());
        byte[] blob = HexFormat.of().parseHex(sealed.encryptedEnv());
        KeyAgreement agreement = KeyAgreement.getInstance("X25519");
        agreement.init(app.getPrivate());
        agreement.doPhase(EnvEncryption.publicKey(HexFormat.of().formatHex(Arrays.copyOfRange(blob, 0, 32))), true);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(agreement.generateSecret(), "AES"),
                new GCMParameterSpec(128, Arrays.copyOfRange(blob, 32, 44)));
        String json = new String(cipher.doFinal(Arrays.copyOfRange(blob, 44, blob.length)), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"env\":[{\"key\":\"DB_PASSWORD\",\"value\":\"s3cret-value\"},{\"key\":\"GREETING\",\"value\":\"hello\"}]}");
    }

    @Test
    void twoSealsOfTheSameEnvDiffer() throws Exception {
        String key = HexFormat.of().formatHex(EnvEncryption.rawPublicKey(
                (XECPublicKey) KeyPairGenerator.getInstance("X25519").generateKeyPair().getPublic()));
        assertThat(EnvEncryption.seal(Map.of("A", "1"), key).encryptedEnv())
                .isNotEqualTo(EnvEncryption.seal(Map.of("A", "1"), key).encryptedEnv());
    }

    @Test
    void badNamesAndKeysAreNamed() {
        String key = "11".repeat(32);
        assertThatThrownBy(() -> EnvEncryption.seal(Map.of("1BAD", "x"), key)).hasMessageStartingWith("envs.1BAD:");
        assertThatThrownBy(() -> EnvEncryption.seal(Map.of("A", "x"), "abc")).hasMessageContaining("32 bytes of hex");
        assertThat(EnvEncryption.seal(Map.of("A", "x"), "0x" + key).envKeys()).isEqualTo(List.of("A"));
    }
}
