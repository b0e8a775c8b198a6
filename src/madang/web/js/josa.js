// 조사 (particles) chosen by the last syllable of the word before them (U19): 이/가,
// 은/는, 을/를, 과/와 — the first after a final consonant (받침), the second after a vowel.
// Digits and Latin letters are read aloud as Korean reads them (3 삼, 7 칠; b 비, n 엔).

/** The particle pairs the catalogue may write as "이(가)" after a placeholder. */
export const PAIRS = {
  "이(가)": ["이", "가"],
  "은(는)": ["은", "는"],
  "을(를)": ["을", "를"],
  "과(와)": ["과", "와"],
};

// digits 0-9 read 영 일 이 삼 사 오 육 칠 팔 구: which end in a 받침
const DIGIT_FINAL = [true, true, false, true, false, false, true, true, true, false];
// Latin letters whose Korean name ends in a 받침: 엘, 엠, 엔, 알
const LATIN_FINAL = new Set(["l", "m", "n", "r"]);

/** Does `word` end in a final consonant when read in Korean? null: cannot tell. */
export function hasFinal(word) {
  const s = String(word ?? "").replace(/[\s)\]}"'.,!?·…]+$/u, "");
  if (!s) return null;
  const c = s[s.length - 1];
  const code = c.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 !== 0;
  if (c >= "0" && c <= "9") return DIGIT_FINAL[+c];
  if (/[a-z]/i.test(c)) return LATIN_FINAL.has(c.toLowerCase());
  return null;
}

/** `word` followed by the right form of `pair` ("이(가)", "은(는)", "을(를)", "과(와)"). */
export function withParticle(word, pair) {
  const forms = PAIRS[pair];
  if (!forms) throw new Error(`unknown particle pair: ${pair}`);
  const f = hasFinal(word);
  return `${word}${f === null ? pair : f ? forms[0] : forms[1]}`;
}
