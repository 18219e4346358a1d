// The game's sounds, made on the fly with Web Audio (no files). Off until switched on.
import { t } from './i18n.js';

const KEY = 'tablero.sound';
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === 'on';
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

// Each event's notes: [frequency in Hz, start and length in seconds], with one wave
// and loudness. Told apart by ear without looking: a move clicks, a capture knocks
// lower and harder, a check rings twice high, an offer asks with a rising pair, and the
// end of the game is a chord.
const SOUNDS = {
  move: { wave: 'triangle', gain: 0.2, notes: [[392, 0, 0.12]] },
  capture: {
    wave: 'square',
    gain: 0.12,
    notes: [
      [220, 0, 0.06],
      [147, 0.04, 0.14],
    ],
  },
  check: {
    wave: 'sawtooth',
    gain: 0.1,
    notes: [
      [880, 0, 0.09],
      [880, 0.12, 0.12],
    ],
  },
  offer: {
    wave: 'sine',
    gain: 0.25,
    notes: [
      [523, 0, 0.15],
      [784, 0.16, 0.25],
    ],
  },
  end: {
    wave: 'triangle',
    gain: 0.2,
    notes: [
      [523, 0, 0.4],
      [659, 0.08, 0.4],
      [784, 0.16, 0.5],
    ],
  },
};

/**
 * Plays the sound of `kind` (`move`, `capture`, `check`, `offer`, `end`) when sound is
 * on. A page that set `window.tableroSounds` to an array finds the name of each sound
 * played there: how the browser tests listen.
 */
export function play(kind) {
  const sound = SOUNDS[kind];
  if (!sound || !soundOn()) return;
  if (Array.isArray(window.tableroSounds)) window.tableroSounds.push(kind);
  if (typeof AudioContext === 'undefined') return;
  try {
    context = context || new AudioContext();
    if (context.state === 'suspended') context.resume();
    const now = context.currentTime;
    for (const [freq, start, length] of sound.notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = sound.wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(sound.gain, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.05);
    }
  } catch {
    // No audio device: play silently.
  }
}

export function soundLabel() {
  return soundOn() ? t('sound.on') : t('sound.off');
}
