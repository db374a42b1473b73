/** Registers `client:interaction` (client-interaction.ts) with Astro. */
import type { AstroIntegration } from 'astro';

export default function interactionDirective(): AstroIntegration {
  return {
    name: 'praxis-client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: new URL('./client-interaction.ts', import.meta.url).pathname });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean;
  }
}
