// Recording a canvas as WebM: MediaRecorder on canvas.captureStream(), where
// the engine has both and records WebM (WebKitGTK and Safari have no WebM
// recorder; they are reported as unable to record).

import { fieldError } from './errors.js';

/** Longest recording `recordCanvas` makes, seconds. */
export const MAX_RECORDING_SECONDS = 60;

const WEBM_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** The WebM type this engine records `canvas` in, or null when it cannot. */
export function recordingType(canvas) {
  if (typeof MediaRecorder !== 'function' || typeof canvas?.captureStream !== 'function') return null;
  if (typeof MediaRecorder.isTypeSupported !== 'function') return null;
  return WEBM_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? null;
}

/** `seconds` when a recording may last that long (above 0, at most 60); else throws an Error with `field` "seconds". */
export function checkSeconds(seconds) {
  if (typeof seconds !== 'number' || !(seconds > 0 && seconds <= MAX_RECORDING_SECONDS)) {
    const got = typeof seconds === 'number' ? String(seconds) : `a value of type ${typeof seconds}`;
    throw fieldError('seconds', typeof seconds === 'number' ? 'invalid_value' : 'wrong_type',
      `invalid seconds: got ${got.slice(0, 40)}, expected a number above 0 and at most ${MAX_RECORDING_SECONDS}`);
  }
  return seconds;
}

/**
 * Records the next `seconds` (more than 0, at most 60) of `canvas` as WebM;
 * resolves to the Blob (type `video/webm...`). `keepDrawing` is called on
 * every recorded slice, so a still cloth still gives frames. Rejects when the
 * engine cannot record WebM or `seconds` is out of range.
 */
export function recordCanvas(canvas, seconds, keepDrawing = () => {}) {
  try {
    checkSeconds(seconds);
  } catch (error) {
    return Promise.reject(error);
  }
  const type = recordingType(canvas);
  if (!type) {
    return Promise.reject(fieldError('record', 'unsupported',
      'recording is unavailable: this browser cannot record a canvas as WebM (MediaRecorder with canvas.captureStream)'));
  }
  return new Promise((resolve, reject) => {
    const stream = canvas.captureStream(30);
    const recorder = new MediaRecorder(stream, { mimeType: type });
    const chunks = [];
    const stopTracks = () => stream.getTracks().forEach((track) => track.stop());
    recorder.ondataavailable = (event) => {
      if (event.data?.size > 0) chunks.push(event.data);
      keepDrawing();
    };
    recorder.onerror = (event) => {
      stopTracks();
      reject(event.error ?? new Error('recording failed'));
    };
    recorder.onstop = () => {
      stopTracks();
      resolve(new Blob(chunks, { type: recorder.mimeType || type }));
    };
    recorder.start(250);
    keepDrawing();
    setTimeout(() => {
      if (recorder.state !== 'inactive') recorder.stop();
    }, seconds * 1000);
  });
}
