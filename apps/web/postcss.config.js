// Mantine's PostCSS setup (rem(), light-dark(), breakpoint variables for CSS modules). An ES module rather
// than Mantine's postcss.config.cjs because the lint setup type-checks .cjs files and this one is in no tsconfig.
export default {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
      },
    },
  },
};
