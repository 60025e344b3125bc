/**
 * Whole-body fat and carbohydrate oxidation from gas exchange, protein neglected (Frayn 1983;
 * Jeukendrup and Wallis 2005), and the energy each supplies. Gases in L/min, rates in g/min.
 */

/** Energy density of oxidised fat, kcal/g (Jeukendrup and Wallis 2005). */
export const KCAL_PER_G_FAT = 9.75;
/** Energy density of oxidised carbohydrate, kcal/g (Jeukendrup and Wallis 2005). */
export const KCAL_PER_G_CHO = 4.18;
/** Joules per thermochemical kilocalorie. */
export const J_PER_KCAL = 4184;

/** Fat oxidation (g/min) = 1.695 VO2 - 1.701 VCO2 (Frayn 1983); an upper bound above RER 1.0, may read negative. */
export function fatGMin(vo2_l_min: number, vco2_l_min: number): number {
  return 1.695 * vo2_l_min - 1.701 * vco2_l_min;
}

/** Carbohydrate oxidation (g/min) = 4.585 VCO2 - 3.226 VO2 (Frayn 1983); negative below RER 0.70. */
export function choGMin(vo2_l_min: number, vco2_l_min: number): number {
  return 4.585 * vco2_l_min - 3.226 * vo2_l_min;
}

/** Energy from fat and carbohydrate oxidation together, kcal/min. */
export function energyKcalMin(fat_g_min: number, cho_g_min: number): number {
  return fat_g_min * KCAL_PER_G_FAT + cho_g_min * KCAL_PER_G_CHO;
}

/** Share of energy expenditure from fat, in % (not clipped: outside 0-100 when a rate reads negative). */
export function pctEnergyFromFat(fat_g_min: number, cho_g_min: number): number {
  return (100 * fat_g_min * KCAL_PER_G_FAT) / energyKcalMin(fat_g_min, cho_g_min);
}

/** Metabolic power (W) of the substrate oxidation rates: kcal/min to J/s. */
export function metabolicPowerW(fat_g_min: number, cho_g_min: number): number {
  return (energyKcalMin(fat_g_min, cho_g_min) * J_PER_KCAL) / 60;
}
