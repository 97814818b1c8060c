/**
 * The till's "paid" signal: two rising tones and a short vibration, where the device allows.
 * Browsers let a page play sound only after a tap: `prepare` is called from the shop's tap on
 * Ask, which opens the audio; `paid` may then sound minutes later, when the payment lands.
 */
export function createPaidSignal() {
  let audio: AudioContext | null = null;
  return {
    prepare(): void {
      try {
        audio ??= new AudioContext();
        void audio.resume();
      } catch {
        audio = null; // No Web Audio here: the screen and the vibration say it.
      }
    },
    paid(): void {
      navigator.vibrate?.([120, 60, 120]);
      if (!audio || audio.state !== "running") return;
      const start = audio.currentTime;
      for (const [i, frequency] of [880, 1320].entries()) {
        const at = start + i * 0.15;
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
        tone.connect(gain).connect(audio.destination);
        tone.start(at);
        tone.stop(at + 0.32);
      }
    },
    close(): void {
      void audio?.close();
      audio = null;
    },
  };
}
