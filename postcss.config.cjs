module.exports = {
  plugins: {
    'postcss-preset-mantine': {
      mixins: {
        // Text for screen readers only. The one definition: src/lib/visually-hidden.module.css makes it a
        // class, and a rule that hides something only at some sizes includes it with `@mixin visually-hidden`.
        'visually-hidden': {
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          clipPath: 'inset(50%)',
          whiteSpace: 'nowrap',
        },
      },
    },
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
