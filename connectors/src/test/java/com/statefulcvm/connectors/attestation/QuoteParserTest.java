package com.statefulcvm.connectors.attestation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class QuoteParserTest {

    private final byte[] v4 = AttestationVectors.dcapQuote();

    @Test
    void readsTheV4LayoutAtItsDocumentedOffsets() {
        Quote quote = QuoteParser.parse(v4);

        assertThat(quote.version()).isEqualTo(4);
        assertThat(quote.teeType()).isEqualTo(Quote.TEE_TYPE_TDX);
        assertThat(quote.attestationKeyType()).isEqualTo(Quote.ATTESTATION_KEY_ECDSA_P256);
        assertThat(quote.bodyType()).isEqualTo(Quote.BODY_TYPE_TD10);
        assertThat(quote.tdReport().isV15()).isFalse();
        assertThat(quote.signedLength()).isEqualTo(632);
        assertThat(quote.tdReport().mrTd()).isEqualTo(Arrays.copyOfRange(v4, 184, 232));
        assertThat(quote.tdReport().rtmr0()).isEqualTo(Arrays.copyOfRange(v4, 376, 424));
        assertThat(quote.tdReport().rtmr1()).isEqualTo(Arrays.copyOfRange(v4, 424, 472));
        assertThat(quote.tdReport().rtmr2()).isEqualTo(Arrays.copyOfRange(v4, 472, 520));
        assertThat(quote.tdReport().rtmr3()).isEqualTo(Arrays.copyOfRange(v4, 520, 568));
        assertThat(quote.tdReport().reportData()).isEqualTo(Arrays.copyOfRange(v4, 568, 632));
        assertThat(Bytes.hex(quote.tdReport().teeTcbSvn())).isEqualTo("06010300000000000000000000000000");
        assertThat(quote.qeReport().isvProdId()).isEqualTo(2);
        assertThat(Bytes.hex(quote.qeReport().mrSigner()))
                .isEqualTo("dc9e2a7c6f948f17474e34a7fc43ed030f7c1563f1babddf6340c82e0e54a8c5");
        assertThat(quote.qeAuthData()).hasSize(32);
        assertThat(QuoteSurgery.pemBlocks(quote.pckChainPem())).hasSize(3);
        assertThat(quote.pckChainPem()).doesNotContain("\0");
    }

    @Test
    void readsAV5QuoteWithATdReport15Body() {
        byte[] svn2 = new byte[16];
        svn2[0] = 7;
        byte[] serviceTd = new byte[48];
        serviceTd[47] = 0x5a;
        byte[] v5 = QuoteSurgery.toV5(v4, true, svn2, serviceTd);

        Quote quote = QuoteParser.parse(v5);

        assertThat(quote.version()).isEqualTo(5);
        assertThat(quote.bodyType()).isEqualTo(Quote.BODY_TYPE_TD15);
        assertThat(quote.tdReport().isV15()).isTrue();
        assertThat(quote.signedLength()).isEqualTo(48 + 6 + 648);
        assertThat(quote.tdReport().teeTcbSvn2()).isEqualTo(svn2);
        assertThat(quote.tdReport().mrServiceTd()).isEqualTo(serviceTd);
        Quote original = QuoteParser.parse(v4);
        assertThat(quote.tdReport().rtmr3()).isEqualTo(original.tdReport().rtmr3());
        assertThat(quote.tdReport().reportData()).isEqualTo(original.tdReport().reportData());
        assertThat(quote.pckChainPem()).isEqualTo(original.pckChainPem());
    }

    @Test
    void readsAV5QuoteWithATdReport10Body() {
        Quote quote = QuoteParser.parse(QuoteSurgery.toV5(v4, false, null, null));

        assertThat(quote.bodyType()).isEqualTo(Quote.BODY_TYPE_TD10);
        assertThat(quote.tdReport().isV15()).isFalse();
        assertThat(quote.tdReport().teeTcbSvn2()).isNull();
        assertThat(quote.signedLength()).isEqualTo(48 + 6 + 584);
    }

    @Test
    void rejectsAV5BodyWhoseSizeDoesNotFitItsType() {
        byte[] v5 = QuoteSurgery.toV5(v4, false, null, null);
        v5[50] = (byte) 0x88; // body size 584 -> 648 while the type stays TD report 1.0

        assertThatThrownBy(() -> QuoteParser.parse(v5)).isInstanceOf(QuoteFormatException.class)
                .hasMessageContaining("must be 584 bytes");
    }

    @Test
    void rejectsATruncatedQuoteNamingTheField() {
        assertThatThrownBy(() -> QuoteParser.parse(Arrays.copyOf(v4, 700)))
                .isInstanceOf(QuoteFormatException.class).hasMessageContaining("signature data");
        assertThatThrownBy(() -> QuoteParser.parse(Arrays.copyOf(v4, 100)))
                .isInstanceOf(QuoteFormatException.class).hasMessageContaining("TD report body");
    }

    @Test
    void rejectsOtherVersionsTeesAndKeys() {
        byte[] v3 = v4.clone();
        v3[0] = 3;
        assertThatThrownBy(() -> QuoteParser.parse(v3)).hasMessageContaining("version 3");
        byte[] sgx = v4.clone();
        sgx[4] = 0;
        assertThatThrownBy(() -> QuoteParser.parse(sgx)).hasMessageContaining("not TDX");
        byte[] otherKey = v4.clone();
        otherKey[2] = 3;
        assertThatThrownBy(() -> QuoteParser.parse(otherKey)).hasMessageContaining("not ECDSA P-256");
    }

    @Test
    void rejectsCertificationDataThatIsNotAQeReport() {
        byte[] copy = v4.clone();
        copy[632 + 4 + 128] = 5; // outer certification data type 6 -> 5

        assertThatThrownBy(() -> QuoteParser.parse(copy)).hasMessageContaining("certification data type 5");
    }
}
