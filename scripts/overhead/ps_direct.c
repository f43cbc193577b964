/* PocketSphinx alone, for the overhead comparison: decodes each 16 kHz mono 16-bit WAV as one
 * utterance with the digits grammar, as the harness's pocketsphinx-digits-batch engine does
 * (words, frame times, posteriors), timing the decoding alone (a fresh decoder per file, its load
 * untimed, as the harness makes one per session).
 *   ps_direct grammar.gram file.wav...   each file's transcript, then TOTAL audio wall cpu
 *   ps_direct grammar.gram -             a path per line on stdin, answered "seconds<TAB>transcript"
 *                                        (speech-harness bench overhead --alone) */
#include <pocketsphinx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static const char *grammar;

/* Decodes one file; 0 on success, with its wall and CPU seconds, audio seconds and transcript. */
static int decode(const char *path, double *wall, double *cpu_seconds, double *audio, char *text, size_t size) {
    char *args[] = {"ps_direct", "-hmm", "/usr/share/pocketsphinx/model/en-us/en-us",
                    "-dict", "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
                    "-samprate", "16000", "-remove_silence", "no", "-jsgf", (char *)grammar, "-logfn", "/tmp/ps_direct.log"};
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), 13, args, 1);
    ps_decoder_t *ps = ps_init(config);
    if (!ps) { fprintf(stderr, "ps_init failed\n"); return 1; }
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); ps_free(ps); cmd_ln_free_r(config); return 1; }
    fseek(f, 0, SEEK_END); long bytes = ftell(f); fseek(f, 44, SEEK_SET);
    size_t n = bytes > 44 ? (bytes - 44) / 2 : 0;
    short *samples = malloc(n * 2 + 2);
    if (fread(samples, 2, n, f) != n) { fprintf(stderr, "short read %s\n", path); fclose(f); free(samples); ps_free(ps); cmd_ln_free_r(config); return 1; }
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
    *wall = now() - start;
    *cpu_seconds = cpu() - start_cpu;
    *audio = n / 16000.0;
    snprintf(text, size, "%s", hyp ? hyp : "");
    free(samples);
    ps_free(ps);
    cmd_ln_free_r(config);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: ps_direct grammar.gram (file.wav... | -)\n"); return 2; }
    grammar = argv[1];
    char text[4096];
    double wall, cpu_seconds, audio;
    if (strcmp(argv[2], "-") == 0) {
        char path[4096];
        while (fgets(path, sizeof path, stdin)) {
            path[strcspn(path, "\n")] = 0;
            if (decode(path, &wall, &cpu_seconds, &audio, text, sizeof text) != 0) return 1;
            printf("%.6f\t%s\n", wall, text);
            fflush(stdout);
        }
        return 0;
    }
    double total = 0, total_cpu = 0, total_audio = 0;
    for (int i = 2; i < argc; i++) {
        if (decode(argv[i], &wall, &cpu_seconds, &audio, text, sizeof text) != 0) return 1;
        total += wall; total_cpu += cpu_seconds; total_audio += audio;
        printf("%s\t%s\n", argv[i], text);
    }
    fprintf(stderr, "audio %.3f s, decode %.3f s\n", total_audio, total);
    printf("TOTAL\t%.6f\t%.6f\t%.6f\n", total_audio, total, total_cpu);
    return 0;
}
