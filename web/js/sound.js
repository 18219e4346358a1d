// Move sounds, made on the fly with Web Audio (no files). Off until switched on.
import { t } from './i18n.js';

const KEY = 'tablero.sound';
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === 'on';
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

/** A short click for a move, a lower one for a capture, a chord at the end. */
export function play(kind) {
  if (!soundOn() || typeof AudioContext === 'undefined') return;
  try {
    context = context || new AudioContext();
    if (context.state === 'suspended') context.resume();
    const notes = kind === 'end' ? [523, 659, 784] : kind === 'capture' ? [196] : [392];
    const now = context.currentTime;
    notes.forEach((freq, i) => {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = 'triangle';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.08);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.08 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.08 + 0.15);
      osc.connect(gain).connect(context.destination);
      osc.start(now + i * 0.08);
      osc.stop(now + i * 0.08 + 0.2);
    });
  } catch {
    // No audio device: play silently.
  }
}

export function soundLabel() {
  return soundOn() ? t('sound.on') : t('sound.off');
}
