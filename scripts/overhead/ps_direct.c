/* PocketSphinx alone, for the overhead comparison: decodes each 16 kHz mono 16-bit WAV named on
 * the command line as one utterance with the digits grammar, as the harness's
 * pocketsphinx-digits-batch engine does (words, frame times, posteriors), and prints the total
 * decoding time (model load apart). */
#include <pocketsphinx.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: ps_direct grammar.gram file.wav...\n"); return 2; }
    char *args[] = {"ps_direct", "-hmm", "/usr/share/pocketsphinx/model/en-us/en-us",
                    "-dict", "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
                    "-samprate", "16000", "-remove_silence", "no", "-jsgf", argv[1], "-logfn", "/tmp/ps_direct.log"};
    double total = 0, total_cpu = 0, audio = 0;
    for (int i = 2; i < argc; i++) {
        /* A fresh decoder per file, as the harness makes one per session; its load is not timed. */
        cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), 13, args, 1);
        ps_decoder_t *ps = ps_init(config);
        if (!ps) { fprintf(stderr, "ps_init failed\n"); return 1; }
        FILE *f = fopen(argv[i], "rb");
        if (!f) { perror(argv[i]); return 1; }
        fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 44, SEEK_SET);
        size_t n = (size - 44) / 2;
        short *samples = malloc(n * 2);
        if (fread(samples, 2, n, f) != n) { fprintf(stderr, "short read %s\n", argv[i]); return 1; }
        fclose(f);
        double start = now(), start_cpu = cpu();
        ps_start_utt(ps);
        ps_process_raw(ps, samples, n, 0, 1);
        ps_end_utt(ps);
        int32 score;
        const char *hyp = ps_get_hyp(ps, &score);
        /* The same outputs the harness takes: words with frame times and posterior confidences. */
        double confidence = 0;
        for (ps_seg_t *seg = ps_seg_iter(ps); seg; seg = ps_seg_next(seg)) {
            int sf, ef; int32 a, l, b;
            ps_seg_frames(seg, &sf, &ef);
            confidence += logmath_exp(ps_get_logmath(ps), ps_seg_prob(seg, &a, &l, &b));
        }
        total += now() - start;
        total_cpu += cpu() - start_cpu;
        audio += n / 16000.0;
        printf("%s\t%s\n", argv[i], hyp ? hyp : "");
        free(samples);
        ps_free(ps);
        cmd_ln_free_r(config);
    }
    fprintf(stderr, "audio %.3f s, decode %.3f s\n", audio, total);
    printf("TOTAL\t%.6f\t%.6f\t%.6f\n", audio, total, total_cpu);
    return 0;
}
